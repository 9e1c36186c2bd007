import { useState } from 'react';
import { formatPaiseExact } from '../../../shared/money.ts';
import {
  FEE_TAX_NOT_CHARGED,
  type FeeTaxSplit,
  feeTaxLabel,
  type PriceBreakdown,
} from '../../../shared/pricing.ts';
import { CheckoutCard } from './checkout-card.tsx';

/**
 * Subtotal, an expandable Booking Fee (Convenience Fee and its GST) and the Grand Total (spec §2).
 * Two cases the spec does not have, both decided by the server: GST added on top of tax-exclusive
 * ticket prices gets its own line under the subtotal, and when the platform is not registered for GST
 * the fee's IGST line says the fee is not charged with tax. The fee's GST is named as its invoice will
 * levy it (issue 36): CGST + SGST (or UTGST) when the buyer is in the platform's state, else IGST.
 */
export function PaymentSummary({
  price,
  ticketTaxRatePercent,
  feeTaxSplit,
  discount = null,
  addOnsPaise = 0,
}: {
  price: PriceBreakdown;
  ticketTaxRatePercent: number | null;
  /** From the state (or GSTIN) given so far; null until then ("GST 18%"). */
  feeTaxSplit: FeeTaxSplit | null;
  /** A discount code the server priced (issue 40): shown before the subtotal, which is after it. */
  discount?: { code: string; discountPaise: number } | null;
  /** Add-ons chosen (ADR 0041), their GST included; in the grand total, not in the fee's base. */
  addOnsPaise?: number;
}) {
  const [open, setOpen] = useState(false);
  return (
    <CheckoutCard id="payment-summary-heading" title="Payment Summary">
      <dl className="mt-3 space-y-2 text-sm">
        {discount && (
          <>
            <div className="flex justify-between">
              <dt>Tickets</dt>
              <dd>{formatPaiseExact(price.subtotalPaise + discount.discountPaise)}</dd>
            </div>
            <div className="flex justify-between text-green-800">
              <dt>Discount ({discount.code})</dt>
              <dd data-testid="discount">−{formatPaiseExact(discount.discountPaise)}</dd>
            </div>
          </>
        )}
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd>{formatPaiseExact(price.subtotalPaise)}</dd>
        </div>
        {ticketTaxRatePercent !== null && (
          <div className="flex justify-between">
            <dt>GST {ticketTaxRatePercent}% on tickets</dt>
            <dd data-testid="ticket-gst">{formatPaiseExact(price.admissionTaxPaise)}</dd>
          </div>
        )}
        {addOnsPaise > 0 && (
          <div className="flex justify-between">
            <dt>Add-ons</dt>
            <dd data-testid="add-ons-total">{formatPaiseExact(addOnsPaise)}</dd>
          </div>
        )}
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
            {price.feeTaxRatePercent > 0 ? (
              <div className="flex justify-between border-l-2 border-gray-200 pl-3 text-gray-600">
                <dt>{feeTaxLabel(feeTaxSplit, price.feeTaxRatePercent)}</dt>
                <dd>{formatPaiseExact(price.igstPaise)}</dd>
              </div>
            ) : (
              <div className="flex justify-between border-l-2 border-gray-200 pl-3 text-gray-600">
                <dt>{FEE_TAX_NOT_CHARGED.label}</dt>
                <dd>{FEE_TAX_NOT_CHARGED.value}</dd>
              </div>
            )}
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
