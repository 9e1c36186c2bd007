import { useState } from 'react';
import { formatPaiseExact } from '../../../shared/money.ts';
import type { PriceBreakdown } from '../../../shared/pricing.ts';
import { CheckoutCard } from './checkout-card.tsx';

/** Subtotal, an expandable Booking Fee (Convenience Fee and IGST 18%) and the Grand Total (spec §2). */
export function PaymentSummary({ price }: { price: PriceBreakdown }) {
  const [open, setOpen] = useState(false);
  return (
    <CheckoutCard id="payment-summary-heading" title="Payment Summary">
      <dl className="mt-3 space-y-2 text-sm">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd>{formatPaiseExact(price.subtotalPaise)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>
            <button
              type="button"
              aria-expanded={open}
              aria-controls="booking-fee-details"
              onClick={() => setOpen((v) => !v)}
              className="inline-flex items-center gap-1 underline decoration-dotted"
            >
              Booking Fee <span aria-hidden="true">{open ? '▴' : '▾'}</span>
            </button>
          </dt>
          <dd>{formatPaiseExact(price.bookingFeePaise)}</dd>
        </div>
        {open && (
          <>
            <div
              id="booking-fee-details"
              className="flex justify-between border-l-2 border-gray-200 pl-3 text-gray-600"
            >
              <dt>Convenience Fee</dt>
              <dd>{formatPaiseExact(price.feePaise)}</dd>
            </div>
            <div className="flex justify-between border-l-2 border-gray-200 pl-3 text-gray-600">
              <dt>IGST 18%</dt>
              <dd>{formatPaiseExact(price.igstPaise)}</dd>
            </div>
          </>
        )}
        <div className="flex justify-between border-t border-gray-200 pt-2 text-base font-bold">
          <dt>Grand Total</dt>
          <dd data-testid="grand-total">{formatPaiseExact(price.grandTotalPaise)}</dd>
        </div>
      </dl>
    </CheckoutCard>
  );
}
