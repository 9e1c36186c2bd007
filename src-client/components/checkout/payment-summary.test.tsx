// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type FeeTaxSplit, feeTaxSplitFor, priceBreakdown } from '../../../shared/pricing.ts';
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
