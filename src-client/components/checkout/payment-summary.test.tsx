// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type FeeTaxSplit, feeTaxSplitFor, priceBreakdown } from '../../../shared/pricing.ts';
import { PLUS_GST_OPTIONS } from '../../../test/mocks/prices-plus-gst-fixtures.ts';
import { checkoutPrice } from './checkout-price.ts';
import { PaymentSummary } from './payment-summary.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let container: HTMLElement;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
});

/** The Payment Summary with its Booking Fee opened: the fee's GST line's label. */
function feeTaxLine(feeTaxSplit: FeeTaxSplit | null): string {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  // 2000.00 subtotal: fee 100.00, GST 18.00.
  act(() =>
    root!.render(
      <PaymentSummary
        price={priceBreakdown(200_000)}
        ticketTaxRatePercent={null}
        feeTaxSplit={feeTaxSplit}
      />,
    ),
  );
  act(() =>
    container.querySelector<HTMLButtonElement>('button[aria-controls="booking-fee-details"]')!.click(),
  );
  const rows = [...container.querySelectorAll('dt')].map((dt) => dt.textContent ?? '');
  return rows.find((r) => r.includes('GST'))!;
}

describe('the checkout names the fee’s GST as its invoice will (issue 36, item 11)', () => {
  it('CGST + SGST for a buyer in the platform’s state, IGST elsewhere or for another state’s GSTIN', () => {
    expect(feeTaxLine(feeTaxSplitFor('Karnataka', { state: 'Karnataka' }))).toBe('CGST 9% + SGST 9%');
    act(() => root?.unmount());
    expect(feeTaxLine(feeTaxSplitFor('Karnataka', { state: 'Maharashtra' }))).toBe('IGST 18%');
    act(() => root?.unmount());
    expect(
      feeTaxLine(feeTaxSplitFor('Karnataka', { state: 'Karnataka', buyerGstin: '27AAPFU0939F1ZV' })),
    ).toBe('IGST 18%');
    act(() => root?.unmount());
    // Before the buyer has said where they are, the heads are not known yet.
    expect(feeTaxLine(null)).toBe('GST 18%');
  });
});

describe('the Payment Summary of a ₹750 + 18 % GST ticket: the GST and the all-in total before payment (issue 40)', () => {
  it('one Gold from Maharashtra: subtotal 750.00, GST on tickets 135.00, booking fee 44.25, grand total 929.25', () => {
    // Priced as the checkout screen prices it: checkoutPrice on the server's ticket options.
    const gold = PLUS_GST_OPTIONS.dates[0]!.slots[0]!.ticketTypes[0]!;
    const priced = checkoutPrice({
      data: PLUS_GST_OPTIONS,
      lines: [{ type: gold, quantity: 1 }],
      discount: null,
      addOnChoice: {},
      details: { buyerGstin: '', state: 'Maharashtra' },
    });
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    act(() =>
      root!.render(
        <PaymentSummary
          price={priced.price}
          ticketTaxRatePercent={PLUS_GST_OPTIONS.taxes.admissionTaxRatePercent}
          feeTaxSplit={priced.feeSplit}
        />,
      ),
    );
    act(() =>
      container.querySelector<HTMLButtonElement>('button[aria-controls="booking-fee-details"]')!.click(),
    );
    const rows = [...container.querySelectorAll('dl > div')].map((row) => [
      row.querySelector('dt')?.textContent?.replace(/[▴▾]/, '').trim(),
      row.querySelector('dd')?.textContent,
    ]);
    // By hand: ticket 750.00; GST 18 % on it 135.00 (885.00); fee 5 % of 750.00 = 37.50, its IGST 18 %
    // (Karnataka's platform, a buyer in Maharashtra) 6.75: booking fee 44.25; 885.00 + 44.25 = 929.25,
    // what test/integration/prices-plus-gst.test.ts sees Proceed charge.
    expect(rows).toEqual([
      ['Subtotal', '₹750.00'],
      ['GST 18% on tickets', '₹135.00'],
      ['Booking Fee', '₹44.25'],
      ['Convenience Fee', '₹37.50'],
      ['IGST 18%', '₹6.75'],
      ['Grand Total', '₹929.25'],
    ]);
  });
});
