import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  admissionTaxOf,
  bookingFeeLabel,
  checkoutPriceBreakdown,
  DEFAULT_CHECKOUT_TAXES,
  DEFAULT_PLATFORM_FEE_RATE,
  feeTaxLabel,
  feeTaxSplitFor,
  priceBreakdown,
  subtotalOf,
} from './pricing.ts';

describe('checkoutPriceBreakdown (worked by hand)', () => {
  const line = (pricePaise: number, quantity: number, personsPerTicket = 1) => ({
    pricePaise,
    quantity,
    personsPerTicket,
  });

  it('charges no GST on the fee when the platform is not registered', () => {
    // 2 × 999.99 = 1999.98; fee 5 % = 99.999 → 100.00; no IGST; total 2099.98
    expect(
      checkoutPriceBreakdown([line(99_999, 2)], null, {
        ...DEFAULT_CHECKOUT_TAXES,
        feeTaxRatePercent: 0,
        admissionTaxRatePercent: null,
      }),
    ).toEqual({
      subtotalPaise: 199_998,
      admissionTaxPaise: 0,
      feePaise: 10_000,
      igstPaise: 0,
      feeTaxRatePercent: 0,
      bookingFeePaise: 10_000,
      grandTotalPaise: 209_998,
    });
  });

  it('adds admission GST on top of tax-exclusive prices, line by line, exempt lines adding nothing', () => {
    const taxes = {
      ...DEFAULT_CHECKOUT_TAXES,
      feeTaxRatePercent: 18,
      admissionTaxRatePercent: 18,
      admissionIntraState: false,
    };
    // 3 × 1000.00 = 3000.00 → GST 540.00; 2 × 500.00 is exempt (₹500 per person) → 0;
    // 1 × 500.01 → 90.0018 → 90.00. Subtotal 4500.01; fee 5 % = 225.0005 → 225.00 (on the prices
    // as set); IGST 40.50; total 4500.01 + 630.00 + 225.00 + 40.50 = 5395.51.
    const price = checkoutPriceBreakdown([line(100_000, 3), line(50_000, 2), line(50_001, 1)], null, taxes);
    expect(price).toEqual({
      subtotalPaise: 450_001,
      admissionTaxPaise: 63_000,
      feePaise: 22_500,
      igstPaise: 4_050,
      feeTaxRatePercent: 18,
      bookingFeePaise: 26_550,
      grandTotalPaise: 539_551,
    });
    // A couple's ticket of ₹1000 is ₹500 per person: exempt, whatever the rate.
    expect(checkoutPriceBreakdown([line(100_000, 1, 2)], 0, taxes).admissionTaxPaise).toBe(0);
    // 12 % on 2 × 1234.56 = 2469.12 → 296.2944 → 296.29, rounded once per line.
    expect(
      checkoutPriceBreakdown([line(123_456, 2)], 0, {
        ...taxes,
        feeTaxRatePercent: 0,
        admissionTaxRatePercent: 12,
      }),
    ).toMatchObject({ admissionTaxPaise: 29_629, grandTotalPaise: 276_541 });
  });

  it('adds GST on a ₹499 workshop (entry 81 does not list workshops) but not on a ₹499 concert', () => {
    const workshop = { ...DEFAULT_CHECKOUT_TAXES, feeTaxRatePercent: 0, admissionTaxRatePercent: 18 };
    // Workshop: 499.00 × 0.09 = 44.91 per head, intra-state → 89.82 on top.
    expect(
      checkoutPriceBreakdown([line(49_900, 1)], 0, { ...workshop, admissionExemptionApplies: false })
        .admissionTaxPaise,
    ).toBe(8_982);
    expect(
      checkoutPriceBreakdown([line(49_900, 1)], 0, { ...workshop, admissionExemptionApplies: true })
        .admissionTaxPaise,
    ).toBe(0);
  });

  it('rounds each head alone intra-state, so the paid tax is what the invoice splits equally', () => {
    const at5 = { ...DEFAULT_CHECKOUT_TAXES, feeTaxRatePercent: 0, admissionTaxRatePercent: 5 };
    // ₹501 excl at 5 %: intra 501 × 0.025 = 12.525 → 12.53 per head → 25.06; inter 501 × 0.05 = 25.05.
    expect(
      checkoutPriceBreakdown([line(50_100, 1)], 0, { ...at5, admissionIntraState: true }).admissionTaxPaise,
    ).toBe(2_506);
    expect(
      checkoutPriceBreakdown([line(50_100, 1)], 0, { ...at5, admissionIntraState: false }).admissionTaxPaise,
    ).toBe(2_505);
  });
});

describe("the fee's GST label (issue 36, item 11): what the fee invoice levies", () => {
  it("says CGST + SGST in the platform's state, IGST elsewhere, and the GSTIN's state decides", () => {
    const mh = feeTaxSplitFor('Maharashtra', { state: 'Maharashtra' });
    expect(bookingFeeLabel(1_800, mh)).toBe('Booking fee (incl. CGST 9% + SGST 9%)');
    expect(bookingFeeLabel(1_800, feeTaxSplitFor('Maharashtra', { state: 'Karnataka' }))).toBe(
      'Booking fee (incl. IGST 18%)',
    );
    // Typed Maharashtra, but the GSTIN is Karnataka's (29…): IGST, as the fee invoice.
    expect(
      feeTaxLabel(feeTaxSplitFor('Maharashtra', { state: 'Maharashtra', buyerGstin: '29AAGCB7383J1Z4' })),
    ).toBe('IGST 18%');
    expect(feeTaxLabel(feeTaxSplitFor('Chandigarh', { state: 'Chandigarh' }))).toBe('CGST 9% + UTGST 9%');
    expect(bookingFeeLabel(0, mh)).toBe('Booking fee (not charged with tax)');
    expect(bookingFeeLabel(1_800, null)).toBe('Booking fee (incl. GST 18%)');
  });
});

describe('priceBreakdown', () => {
  it('charges the default 5 % fee and 18 % IGST on the fee when the event sets no rate', () => {
    expect(DEFAULT_PLATFORM_FEE_RATE).toBe(5);
    expect(priceBreakdown(100_000)).toEqual({
      subtotalPaise: 100_000,
      admissionTaxPaise: 0,
      feePaise: 5_000,
      igstPaise: 900,
      feeTaxRatePercent: 18,
      bookingFeePaise: 5_900,
      grandTotalPaise: 105_900,
    });
    expect(priceBreakdown(100_000, null).grandTotalPaise).toBe(105_900);
  });

  it("uses the event's platformFeeRate, fractional rates included", () => {
    expect(priceBreakdown(100_000, 10)).toMatchObject({
      feePaise: 10_000,
      igstPaise: 1_800,
      grandTotalPaise: 111_800,
    });
    expect(priceBreakdown(100_000, 2.5)).toMatchObject({ feePaise: 2_500, igstPaise: 450 });
    expect(priceBreakdown(100_000, 0)).toMatchObject({ feePaise: 0, igstPaise: 0, grandTotalPaise: 100_000 });
  });

  it('rounds each amount half-up to the paisa (199.99 Student Pass)', () => {
    // fee 5 % of 199.99 = 9.9995 → 10.00; IGST 18 % of 10.00 = 1.80; total 211.79
    expect(priceBreakdown(19_999)).toEqual({
      subtotalPaise: 19_999,
      admissionTaxPaise: 0,
      feePaise: 1_000,
      igstPaise: 180,
      feeTaxRatePercent: 18,
      bookingFeePaise: 1_180,
      grandTotalPaise: 21_179,
    });
    // 3 × 999.99 = 2999.97; fee 149.9985 → 150.00; IGST 27.00
    expect(priceBreakdown(299_997)).toMatchObject({
      feePaise: 15_000,
      igstPaise: 2_700,
      grandTotalPaise: 317_697,
    });
    // fee 5 % of 0.10 = 0.005 → 0.01 (half up); IGST 18 % of 0.01 = 0.0018 → 0.00
    expect(priceBreakdown(10)).toMatchObject({ feePaise: 1, igstPaise: 0, grandTotalPaise: 11 });
  });

  it('always returns whole paise that add up, for any subtotal and rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_00 }),
        fc.integer({ min: 0, max: 3000 }),
        (subtotal, bp) => {
          const p = priceBreakdown(subtotal, bp / 100);
          for (const v of Object.values(p)) expect(Number.isInteger(v)).toBe(true);
          expect(p.grandTotalPaise).toBe(p.subtotalPaise + p.feePaise + p.igstPaise);
          expect(Math.abs(p.feePaise - (subtotal * bp) / 10_000)).toBeLessThanOrEqual(0.5);
          expect(Math.abs(p.igstPaise - (p.feePaise * 18) / 100)).toBeLessThanOrEqual(0.5);
        },
      ),
    );
  });

  it('refuses amounts that are not whole paise', () => {
    expect(() => priceBreakdown(199.99)).toThrow(RangeError);
    expect(() => priceBreakdown(-1)).toThrow(RangeError);
  });
});

describe('subtotalOf', () => {
  it('sums price × quantity', () => {
    expect(
      subtotalOf([
        { pricePaise: 19_999, quantity: 2 },
        { pricePaise: 49_999, quantity: 1 },
      ]),
    ).toBe(89_997);
    expect(subtotalOf([])).toBe(0);
  });
});

describe('admissionTaxOf: the ticket GST read back from what a hold or booking charged (worked by hand)', () => {
  it('is what the total holds beyond the tickets, the add-ons, the fee and its GST', () => {
    // 2 × ₹1,000.00 tax-exclusive at 18 % = ₹360.00 GST; fee 5 % = ₹100.00, its GST 18 % = ₹18.00;
    // 2 parking passes at ₹250.00 with their GST inside = ₹500.00.
    // Total 2000.00 + 360.00 + 100.00 + 18.00 + 500.00 = ₹2,978.00.
    const charged = {
      totalPaise: 297_800,
      subtotalPaise: 200_000,
      addOnsPaise: 50_000,
      feePaise: 10_000,
      igstPaise: 1_800,
    };
    expect(admissionTaxOf(charged)).toBe(36_000);
    // The add-ons' own GST is inside their price and is not ticket GST; without them the total is ₹2,478.00.
    expect(admissionTaxOf({ ...charged, totalPaise: 247_800, addOnsPaise: 0 })).toBe(36_000);
  });

  it('is 0 when the prices include GST, and with no fee GST when the platform charges none', () => {
    // 2 × ₹999.99 = 1999.98; fee 100.00; IGST 18.00; total 2117.98.
    expect(
      admissionTaxOf({
        totalPaise: 211_798,
        subtotalPaise: 199_998,
        addOnsPaise: 0,
        feePaise: 10_000,
        igstPaise: 1_800,
      }),
    ).toBe(0);
    // ₹199.99 at 18 % exclusive: 36.00 (35.9982 half-up); fee 10.00, no GST; total 245.99.
    expect(
      admissionTaxOf({
        totalPaise: 24_599,
        subtotalPaise: 19_999,
        addOnsPaise: 0,
        feePaise: 1_000,
        igstPaise: 0,
      }),
    ).toBe(3_600);
  });

  it('gives back the admission GST that checkoutPriceBreakdown put into the total, add-ons or not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000_00 }),
        fc.integer({ min: 1, max: 10 }),
        fc.constantFrom(null, 5, 12, 18, 28),
        fc.constantFrom(0, 18),
        fc.integer({ min: 0, max: 50_000_00 }),
        (price, quantity, admissionRate, feeRate, addOnsPaise) => {
          const p = checkoutPriceBreakdown([{ pricePaise: price, quantity, personsPerTicket: 1 }], null, {
            ...DEFAULT_CHECKOUT_TAXES,
            feeTaxRatePercent: feeRate,
            admissionTaxRatePercent: admissionRate,
            admissionExemptionApplies: false,
          });
          expect(
            admissionTaxOf({
              // A hold's total is the tickets' grand total plus the add-ons (services/inventory/holds.ts).
              totalPaise: p.grandTotalPaise + addOnsPaise,
              subtotalPaise: p.subtotalPaise,
              addOnsPaise,
              feePaise: p.feePaise,
              igstPaise: p.igstPaise,
            }),
          ).toBe(p.admissionTaxPaise);
        },
      ),
    );
  });
});
