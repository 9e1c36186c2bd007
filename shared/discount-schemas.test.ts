import { describe, expect, it } from 'vitest';
import {
  CreateDiscountCodeInput,
  codeKeyOf,
  DISCOUNT_MESSAGES,
  discountPerTicket,
} from './discount-schemas.ts';
import { computeTaxLine } from './gst.ts';
import { checkoutPriceBreakdown, DEFAULT_CHECKOUT_TAXES } from './pricing.ts';

const percent = (percentOff: number, ticketTypeIds: string[] | null = null) =>
  ({ kind: 'percent', percentOff, amountOffPaise: null, ticketTypeIds }) as const;
const fixed = (amountOffPaise: number) =>
  ({ kind: 'fixed', percentOff: null, amountOffPaise, ticketTypeIds: null }) as const;

describe('discountPerTicket', () => {
  it('rounds a percentage half-up to the paisa, per ticket', () => {
    // 15 % of ₹999.99 = 149.9985 → ₹150.00; of ₹0.03 = 0.0045 → 0.
    expect(discountPerTicket(percent(15), 'a', 99_999)).toBe(15_000);
    expect(discountPerTicket(percent(15), 'a', 3)).toBe(0);
    expect(discountPerTicket(percent(100), 'a', 99_999)).toBe(99_999);
  });

  it('never takes more than the price, and nothing off a type the code is not for', () => {
    expect(discountPerTicket(fixed(50_000), 'a', 40_000)).toBe(40_000);
    expect(discountPerTicket(percent(10, ['b']), 'a', 40_000)).toBe(0);
    expect(discountPerTicket(percent(10, ['b']), 'b', 40_000)).toBe(4_000);
  });
});

describe('the price with a discount', () => {
  it('charges fee and GST on the discounted price; the exemption is judged on it', () => {
    // ₹600 less ₹150 = ₹450 a person: exempt, though ₹600 would not be.
    expect(computeTaxLine(taxLine(60_000, 15_000)).kind).toBe('exempt');
    expect(computeTaxLine(taxLine(60_000, 0)).kind).toBe('intra');
    // A kind entry 81 does not list is taxed however low the price charged.
    expect(computeTaxLine({ ...taxLine(60_000, 15_000), exemptionApplies: false }).kind).toBe('intra');
    // ₹1,000 less 20 % exclusive: taxable 1,600.00 for two, GST 288.00.
    expect(computeTaxLine({ ...taxLine(100_000, 20_000), taxInclusive: false })).toMatchObject({
      taxableValuePaise: 160_000,
      taxPaise: 28_800,
    });
    const price = checkoutPriceBreakdown(
      [{ pricePaise: 100_000, quantity: 2, personsPerTicket: 1, discountPerTicketPaise: 20_000 }],
      null,
      { ...DEFAULT_CHECKOUT_TAXES, admissionTaxRatePercent: 18 },
    );
    expect(price).toMatchObject({ subtotalPaise: 160_000, admissionTaxPaise: 28_800, feePaise: 8_000 });
    expect(() => computeTaxLine(taxLine(100, 101))).toThrow(RangeError);
  });
});

describe('the organiser form', () => {
  const fields = {
    code: 'Summer',
    kind: 'percent',
    percentOff: 10,
    amountOffPaise: null,
    ticketTypeIds: null,
    validFrom: null,
    validUntil: null,
    maxUses: null,
    maxUsesPerBuyer: null,
  };
  const problem = (code: object) =>
    CreateDiscountCodeInput.safeParse({ eventId: 'e', code: { ...fields, ...code } }).error?.issues[0]
      ?.message;

  it('says what is wrong, in one message per rule', () => {
    expect(problem({})).toBeUndefined();
    expect(problem({ percentOff: 101 })).toBe(DISCOUNT_MESSAGES.percentRange);
    expect(problem({ percentOff: null })).toBe(DISCOUNT_MESSAGES.percentRange);
    expect(problem({ kind: 'fixed', amountOffPaise: -1 })).toBe(DISCOUNT_MESSAGES.amountPositive);
    expect(problem({ code: 'x'.repeat(50_000) })).toBe(DISCOUNT_MESSAGES.codeLong);
    expect(problem({ code: 'two words' })).toBe(DISCOUNT_MESSAGES.codeCharacters);
    expect(problem({ maxUses: 0 })).toBe(DISCOUNT_MESSAGES.limitPositive);
    expect(problem({ validFrom: '2026-12-02T00:00:00.000Z', validUntil: '2026-12-01T00:00:00.000Z' })).toBe(
      DISCOUNT_MESSAGES.windowOrder,
    );
    expect(codeKeyOf('  DiWaLi20 ')).toBe('diwali20');
  });
});

function taxLine(pricePaise: number, discountPerTicketPaise: number) {
  return {
    pricePaise,
    discountPerTicketPaise,
    personsPerTicket: 1,
    quantity: 2,
    taxRatePercent: 18,
    taxInclusive: true,
    supplierState: 'Maharashtra',
    placeOfSupply: 'Maharashtra',
    // A kind entry 81 lists (a concert): the ₹500 exemption can apply.
    exemptionApplies: true,
  } as const;
}
