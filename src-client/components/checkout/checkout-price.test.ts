import { describe, expect, it } from 'vitest';
import { DEFAULT_CHECKOUT_TAXES } from '../../../shared/pricing.ts';
import { RECIPIENT_ADDRESS_THRESHOLD_PAISE } from '../../../shared/recipient-address.ts';
import { type CheckoutOptions, checkoutPrice, type SelectedLine } from './checkout-price.ts';
import type { DiscountQuote } from './discount-code-field.tsx';

// Only the fields checkoutPrice reads: the rest of the options answer is the server's concern.
const tShirt = {
  id: 'tee',
  ticketTypeIds: ['vip'],
  pricePaise: 50_000,
  taxRatePercent: 12,
  variants: [{ id: 'tee-m' }, { id: 'tee-l' }],
};
const options = (taxes = {}) =>
  ({
    event: { platformFeeRate: 5 },
    taxes: { ...DEFAULT_CHECKOUT_TAXES, feeSupplierState: 'Maharashtra', ...taxes },
    addOns: [tShirt],
  }) as unknown as CheckoutOptions;
const line = (id: string, pricePaise: number, quantity: number) =>
  ({ type: { id, pricePaise, personAllowedPerTicket: 1 }, quantity }) as unknown as SelectedLine;
const noBuyer = { buyerGstin: '', state: '' };
/** checkoutPrice with no discount, no add-on chosen and nothing typed, but for what a test sets. */
const priceOf = (choice: Partial<Parameters<typeof checkoutPrice>[0]>) =>
  checkoutPrice({ data: options(), lines: [], discount: null, addOnChoice: {}, details: noBuyer, ...choice });

describe('checkoutPrice', () => {
  it('prices the tickets with the fee and adds the chosen add-ons to the total, with no fee on them', () => {
    const priced = priceOf({ lines: [line('vip', 100_000, 2)], addOnChoice: { 'tee-l': 2 } });
    expect(priced.price.subtotalPaise).toBe(200_000);
    expect(priced.price.feePaise).toBe(10_000);
    expect(priced.addOnsPaise).toBe(100_000);
    expect(priced.price.grandTotalPaise).toBe(200_000 + 10_000 + 1_800 + 100_000);
    expect(priced.chosenAddOns).toEqual([{ variantId: 'tee-l', quantity: 2 }]);
  });

  it('offers an add-on only beside the ticket types it is sold with', () => {
    const priced = priceOf({ lines: [line('general', 100_000, 1)], addOnChoice: { 'tee-l': 1 } });
    expect(priced.offeredAddOns).toEqual([]);
    expect(priced.chosenAddOns).toEqual([]);
    expect(priced.addOnsPaise).toBe(0);
  });

  it("takes the server's discount quote over the list price, and sends its code", () => {
    const quoted = { subtotalPaise: 150_000, grandTotalPaise: 158_850 };
    const discount = { code: 'EARLY', price: quoted, lines: [] } as unknown as DiscountQuote;
    const priced = priceOf({ lines: [line('vip', 100_000, 2)], discount });
    expect(priced.price.grandTotalPaise).toBe(158_850);
    expect(priced.discountCode).toBe('EARLY');
  });

  it('asks for the billing address from the threshold, or as soon as a GSTIN is typed', () => {
    const at = (pricePaise: number, buyerGstin: string) =>
      priceOf({ lines: [line('vip', pricePaise, 1)], details: { buyerGstin, state: '' } }).addressRequired;
    expect(at(RECIPIENT_ADDRESS_THRESHOLD_PAISE - 100, '')).toBe(false);
    expect(at(RECIPIENT_ADDRESS_THRESHOLD_PAISE, '')).toBe(true);
    expect(at(100, '27')).toBe(true);
  });

  it('weighs Rule 46’s ₹50,000 on the taxable value, as the invoice works it, not the price with GST', () => {
    // A registered organiser's inclusive 18 % event (a workshop: no entry-81 exemption).
    const inclusive = options({ admissionInvoiceRatePercent: 18, admissionExemptionApplies: false });
    const exclusive = options({
      admissionTaxRatePercent: 18,
      admissionInvoiceRatePercent: 18,
      admissionExemptionApplies: false,
    });
    const at = (data: CheckoutOptions, pricePaise: number, quantity = 1) =>
      priceOf({ data, lines: [line('vip', pricePaise, quantity)] }).addressRequired;
    // ₹50,000 incl: taxable 50,000 / 1.18 = 42,372.88, below ₹50,000: no address.
    expect(at(inclusive, 5_000_000)).toBe(false);
    // ₹59,000 incl (2 × ₹29,500): taxable 59,000 / 1.18 = 50,000.00: the address.
    expect(at(inclusive, 2_950_000, 2)).toBe(true);
    // ₹50,000 + GST: taxable 50,000.00 (the buyer pays 59,000): the address.
    expect(at(exclusive, 5_000_000)).toBe(true);
    // ₹49,999.99 + GST: taxable just under, though the buyer pays 58,999.99.
    expect(at(exclusive, 4_999_999)).toBe(false);
  });

  it("splits the fee's GST by the GSTIN's state over the state chosen, and not before either is known", () => {
    const split = (details: { buyerGstin: string; state: string }) =>
      priceOf({ lines: [line('vip', 1_000, 1)], details }).feeSplit;
    expect(split(noBuyer)).toBeNull();
    expect(split({ buyerGstin: '', state: 'Maharashtra' })).toMatchObject({ intra: true });
    expect(split({ buyerGstin: '', state: 'Karnataka' })).toEqual({ intra: false });
    expect(split({ buyerGstin: '27AAPFU0939F1ZV', state: 'Karnataka' })).toMatchObject({ intra: true });
  });
});
