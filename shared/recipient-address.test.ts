import { describe, expect, it } from 'vitest';
import {
  RECIPIENT_ADDRESS_MESSAGES,
  recipientAddressOf,
  recipientAddressRequired,
} from './recipient-address.ts';

describe('recipient address (Rule 46(e))', () => {
  it('is required for a registered buyer, or at ₹50,000 and over; not below', () => {
    expect(recipientAddressRequired({ buyerGstin: '27AAPFU0939F1ZV', invoiceValuePaise: 100 })).toBe(true);
    expect(recipientAddressRequired({ buyerGstin: '', invoiceValuePaise: 4_999_999 })).toBe(false);
    // ₹50,000.00 exactly: "fifty thousand rupees or more".
    expect(recipientAddressRequired({ invoiceValuePaise: 5_000_000 })).toBe(true);
  });

  it('keeps the address only when required, and says why it is missing', () => {
    expect(recipientAddressOf({ invoiceValuePaise: 100 }, 'Flat 4, Pune')).toEqual({
      ok: true,
      address: null,
    });
    expect(recipientAddressOf({ invoiceValuePaise: 5_000_000 }, '  Flat 4, Pune ')).toEqual({
      ok: true,
      address: 'Flat 4, Pune',
    });
    expect(recipientAddressOf({ buyerGstin: '27AAPFU0939F1ZV', invoiceValuePaise: 1 }, '  ')).toEqual({
      ok: false,
      message: RECIPIENT_ADDRESS_MESSAGES.required,
    });
  });
});
