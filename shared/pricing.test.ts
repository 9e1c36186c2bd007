import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLATFORM_FEE_RATE, priceBreakdown, subtotalOf } from './pricing.ts';

describe('priceBreakdown', () => {
  it('charges the default 5 % fee and 18 % IGST on the fee when the event sets no rate', () => {
    expect(DEFAULT_PLATFORM_FEE_RATE).toBe(5);
    expect(priceBreakdown(100_000)).toEqual({
      subtotalPaise: 100_000,
      feePaise: 5_000,
      igstPaise: 900,
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
      feePaise: 1_000,
      igstPaise: 180,
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
