import { describe, expect, it } from 'vitest';
import { ticketDetailsFieldProblems, ticketDetailsSchema } from './checkout-schemas.ts';
import { RECIPIENT_ADDRESS_MESSAGES } from './recipient-address.ts';

describe('ticketDetailsSchema', () => {
  const details = { name: 'Meera Iyer', email: 'meera@example.com', state: 'Kerala' };

  it('keeps the 10 digits of a phone typed with +91, 0, spaces or dashes', () => {
    for (const phone of ['+91 98765-43210', '098765 43210', '98765 43210', '9876543210']) {
      expect(ticketDetailsSchema.parse({ ...details, phone }).phone, phone).toBe('9876543210');
    }
  });

  it('still refuses a number that is not an Indian mobile', () => {
    expect(ticketDetailsSchema.safeParse({ ...details, phone: '12345' }).success).toBe(false);
  });
});

describe('buyer GST details at checkout', () => {
  const base = { name: 'Asha', email: 'asha@example.com', phone: '9876543210', state: 'Goa' };
  it('are optional; a GSTIN is checked and needs the legal name it is registered to', () => {
    expect(ticketDetailsSchema.safeParse(base).success).toBe(true);
    expect(
      ticketDetailsSchema.parse({ ...base, buyerGstin: '30aapfu0939f1z8', buyerLegalName: 'Asha Ltd' }),
    ).toMatchObject({ buyerGstin: '30AAPFU0939F1Z8' });
    expect(
      ticketDetailsFieldProblems({ ...base, buyerGstin: '27AAPFU0939F1ZW', buyerLegalName: 'Asha Ltd' }),
    ).toEqual({ buyerGstin: 'Please enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)' });
    expect(ticketDetailsFieldProblems({ ...base, buyerGstin: '27AAPFU0939F1ZV' })).toEqual({
      buyerLegalName: 'Please enter the legal name registered for this GSTIN',
    });
  });

  it("the form asks a business's address for its PIN code, as the server does", () => {
    const business = { ...base, buyerGstin: '27AAPFU0939F1ZV', buyerLegalName: 'Asha Ltd' };
    expect(
      ticketDetailsFieldProblems({ ...business, buyerAddress: 'Panjim, Goa' }, { addressRequired: true }),
    ).toEqual({ buyerAddress: RECIPIENT_ADDRESS_MESSAGES.businessPin });
    expect(
      ticketDetailsFieldProblems(
        { ...business, buyerAddress: 'Panjim, Goa 403001' },
        { addressRequired: true },
      ),
    ).toEqual({});
  });
});
