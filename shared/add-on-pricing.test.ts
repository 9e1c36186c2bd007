import { describe, expect, it } from 'vitest';
import { addOnLineTotalPaise } from './add-on-pricing.ts';

describe('addOnLineTotalPaise', () => {
  it('charges the price as set when the event’s prices include GST', () => {
    expect(
      addOnLineTotalPaise(
        { pricePaise: 50_000, quantity: 2, taxRatePercent: 5 },
        { pricesPlusGst: false, intraState: true },
      ),
    ).toBe(100_000);
  });

  it('adds the add-on’s own GST on top of "+ GST" prices, never the ₹500 exemption', () => {
    // ₹400 parking at 18 %: an admission of ₹400 would be exempt; parking is not. 40000 × 18 % = 7200.
    expect(
      addOnLineTotalPaise(
        { pricePaise: 40_000, quantity: 1, taxRatePercent: 18 },
        { pricesPlusGst: true, intraState: false },
      ),
    ).toBe(47_200);
  });

  it('rounds per head as the invoice does: intra-state CGST and SGST each, inter-state IGST once', () => {
    // ₹333.33 at 5 %: intra 33333 × 2.5 % = 833.325 → 833 twice = 1666; inter 1666.65 → 1667.
    const line = { pricePaise: 33_333, quantity: 1, taxRatePercent: 5 };
    expect(addOnLineTotalPaise(line, { pricesPlusGst: true, intraState: true })).toBe(34_999);
    expect(addOnLineTotalPaise(line, { pricesPlusGst: true, intraState: false })).toBe(35_000);
  });
});
