import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECKOUT_TAXES } from './pricing.ts';
import {
  invoiceTaxableValuePaise,
  RECIPIENT_ADDRESS_MESSAGES,
  recipientAddressOf,
  recipientAddressRequired,
} from './recipient-address.ts';

/** A registered organiser's event at 18 %, intra-state, not an entry-81 kind (a workshop). */
const inclusive18 = {
  ...DEFAULT_CHECKOUT_TAXES,
  admissionTaxRatePercent: null,
  admissionInvoiceRatePercent: 18,
  admissionExemptionApplies: false,
};
const exclusive18 = { ...inclusive18, admissionTaxRatePercent: 18 };
const ticket = (pricePaise: number, quantity = 1) => ({ pricePaise, quantity, personsPerTicket: 1 });

describe('recipient address (Rule 46(e) and (f))', () => {
  it('is required for a registered buyer, or at a taxable value of ₹50,000 and over; not below', () => {
    expect(recipientAddressRequired({ buyerGstin: '27AAPFU0939F1ZV', taxableValuePaise: 100 })).toBe(true);
    expect(recipientAddressRequired({ buyerGstin: '', taxableValuePaise: 4_999_999 })).toBe(false);
    // ₹50,000.00 exactly: "fifty thousand rupees or more".
    expect(recipientAddressRequired({ taxableValuePaise: 5_000_000 })).toBe(true);
  });

  it('weighs the taxable value, worked as the invoice works it, not the value with GST', () => {
    // ₹50,000 incl. 18 %: 50,000 / 1.18 = 42,372.8814 → 42,372.88; tax 7,627.12 (even) → taxable 42,372.88.
    const at50k = invoiceTaxableValuePaise([ticket(5_000_000)], [], inclusive18);
    expect(at50k).toBe(4_237_288);
    expect(recipientAddressRequired({ taxableValuePaise: at50k })).toBe(false);
    // ₹59,000 incl. 18 %: 59,000 / 1.18 = 50,000.00 exactly: taxable ₹50,000, required.
    const at59k = invoiceTaxableValuePaise([ticket(2_950_000, 2)], [], inclusive18);
    expect(at59k).toBe(5_000_000);
    expect(recipientAddressRequired({ taxableValuePaise: at59k })).toBe(true);
    // ₹50,000 + GST: the price is the taxable value.
    expect(invoiceTaxableValuePaise([ticket(5_000_000)], [], exclusive18)).toBe(5_000_000);
    // ₹58,999.99 incl: 58,999.99 / 1.18 = 49,999.9915 → 49,999.99; tax 9,000.00 → just under.
    const under = invoiceTaxableValuePaise([ticket(5_899_999)], [], inclusive18);
    expect(under).toBe(4_999_999);
    expect(recipientAddressRequired({ taxableValuePaise: under })).toBe(false);
  });

  it('takes a discount off, counts add-ons at their own rate, and an unregistered organiser’s price as set', () => {
    // 2 × ₹30,000 + GST less ₹5,000 each: 2 × 25,000 = ₹50,000 taxable.
    expect(
      invoiceTaxableValuePaise(
        [{ ...ticket(3_000_000, 2), discountPerTicketPaise: 500_000 }],
        [],
        exclusive18,
      ),
    ).toBe(5_000_000);
    // ₹47,200 incl. 18 % (taxable 40,000.00) + an add-on of ₹11,200 incl. 12 % (taxable 10,000.00) = ₹50,000.
    expect(
      invoiceTaxableValuePaise(
        [ticket(4_720_000)],
        [{ pricePaise: 1_120_000, quantity: 1, taxRatePercent: 12 }],
        inclusive18,
      ),
    ).toBe(5_000_000);
    // Not registered: no GST inside, ₹50,000 is ₹50,000.
    expect(
      invoiceTaxableValuePaise([ticket(5_000_000)], [], {
        ...inclusive18,
        admissionInvoiceRatePercent: null,
      }),
    ).toBe(5_000_000);
  });

  it('keeps the address only when required, and says why it is missing', () => {
    expect(recipientAddressOf({ taxableValuePaise: 100 }, 'Flat 4, Pune')).toEqual({
      ok: true,
      address: null,
    });
    expect(recipientAddressOf({ taxableValuePaise: 5_000_000 }, '  Flat 4, Pune ')).toEqual({
      ok: true,
      address: 'Flat 4, Pune',
    });
    expect(recipientAddressOf({ buyerGstin: '27AAPFU0939F1ZV', taxableValuePaise: 1 }, '  ')).toEqual({
      ok: false,
      message: RECIPIENT_ADDRESS_MESSAGES.required,
    });
  });
});

describe("a registered buyer's address", () => {
  const business = { buyerGstin: '29AAGCB7383J1Z4', taxableValuePaise: 100_000 };

  it("needs its PIN code (the IRP's BuyerDtls.Pin); an unregistered buyer's does not", () => {
    expect(recipientAddressOf(business, '80 Feet Road, Indiranagar, Bengaluru')).toEqual({
      ok: false,
      message: RECIPIENT_ADDRESS_MESSAGES.businessPin,
    });
    expect(recipientAddressOf(business, '80 Feet Road, Indiranagar, Bengaluru 560038')).toEqual({
      ok: true,
      address: '80 Feet Road, Indiranagar, Bengaluru 560038',
    });
    // ₹50,000 or more to an unregistered buyer: an address, PIN or not.
    expect(recipientAddressOf({ taxableValuePaise: 5_000_000 }, 'Koregaon Park, Pune')).toEqual({
      ok: true,
      address: 'Koregaon Park, Pune',
    });
  });
});
