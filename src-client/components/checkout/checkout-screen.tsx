import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useCurrentUser } from '../../lib/auth.ts';
import { VerifyEmailNotice } from '../verify-email-notice.tsx';
import { type AddOnChoice, AddOnPicker } from './add-on-picker.tsx';
import { AttendeeQuestions } from './attendee-questions.tsx';
import { CheckoutMessages } from './checkout-messages.tsx';
import {
  type CheckoutOptions,
  type CheckoutSlot,
  checkoutPrice,
  type SelectedLine,
} from './checkout-price.ts';
import { DiscountCodeField, type DiscountQuote } from './discount-code-field.tsx';
import { EventSummaryCard } from './event-summary-card.tsx';
import { HoldCountdown } from './hold-countdown.tsx';
import { PaymentSummary } from './payment-summary.tsx';
import { PhoneProceedBar, ProceedButton } from './phone-proceed-bar.tsx';
import { TicketDetailsForm } from './ticket-details-form.tsx';
import { useCheckoutBanner } from './use-checkout-banner.ts';
import { useCheckoutForm } from './use-checkout-form.ts';
import { PaymentWindowLayers } from './use-payment-window.tsx';
import { useProceed } from './use-proceed.ts';

/** The checkout of one selection: the buyer's details and answers, the price, and Proceed to payment. */
export function CheckoutScreen({
  data,
  dateId,
  slot,
  lines,
  code,
}: {
  data: CheckoutOptions;
  dateId: string;
  slot: CheckoutSlot;
  lines: SelectedLine[];
  /** The access code the buyer came with: applied at once, as if typed into "Discount code". */
  code?: string;
}) {
  const me = useCurrentUser();
  const form = useCheckoutForm({ me, eventId: data.event.id, slotId: slot.id, lines });
  const banner = useCheckoutBanner();
  // A discount code the server priced (issue 40); null: list prices.
  const [discount, setDiscount] = useState<DiscountQuote | null>(null);
  const [addOnChoice, setAddOnChoice] = useState<AddOnChoice>({});
  const priced = checkoutPrice({ data, lines, discount, addOnChoice, details: form.details });
  const order = { eventId: data.event.id, dateId, slotId: slot.id, lines };
  const { payment, proceed, onSessionExpired, disabled, proceedText } = useProceed({
    me,
    order,
    form,
    priced,
    banner,
  });
  const { price } = priced;

  return (
    <div className="mx-auto max-w-5xl px-4 pt-6 pb-28 md:pb-6">
      <h1 className="text-2xl font-bold">Checkout</h1>
      {me.data && !me.data.isEmailVerified && <VerifyEmailNotice email={me.data.email} at="checkout" />}
      {payment.session && payment.phase === 'paying' && (
        <div className="mt-4">
          <HoldCountdown until={payment.session.sessionExpiresAt} onExpire={onSessionExpired} />
        </div>
      )}

      <div className="mt-6 grid gap-6 md:grid-cols-[1fr_340px]">
        <div className="space-y-6">
          <section
            aria-labelledby="important-heading"
            className="rounded-xl border border-amber-200 bg-amber-50 p-4"
          >
            <h2 id="important-heading" className="font-bold">
              Important Points
            </h2>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-gray-800">
              <li>
                Your tickets will appear in the My Bookings section of your profile once the payment succeeds.
              </li>
              <li>Bring a valid government ID to the venue; it is checked together with your ticket.</li>
              <li>Show the QR code on your ticket at the entry.</li>
            </ul>
          </section>
          <TicketDetailsForm
            details={form.details}
            setDetails={form.setDetails}
            fieldProblems={form.fieldProblems(priced.addressRequired)}
            fields={form.fields}
            stateSelect={form.stateSelect}
            addressRequired={priced.addressRequired}
            loadFailed={Boolean(me.error)}
          />
          <AttendeeQuestions
            forms={form.questionForms}
            quantities={form.quantities}
            values={form.answers}
            problems={form.answerProblems}
            onChange={form.setAnswer}
          />
        </div>

        <aside className="space-y-4">
          <EventSummaryCard event={data.event} slot={slot} lines={lines} />
          <DiscountCodeField
            request={{
              eventId: data.event.id,
              selectedSlot: slot.id,
              selectedTickets: lines.map((l) => ({ ticketTypeId: l.type.id, quantity: l.quantity })),
            }}
            applied={discount}
            onApplied={setDiscount}
            initialCode={code}
          />
          <AddOnPicker
            addOns={priced.offeredAddOns}
            choice={addOnChoice}
            onChange={setAddOnChoice}
            taxes={priced.addOnTaxes}
          />
          <PaymentSummary
            addOnsPaise={priced.addOnsPaise}
            price={price}
            ticketTaxRatePercent={data.taxes.admissionTaxRatePercent}
            feeTaxSplit={priced.feeSplit}
            discount={discount}
          />
          <p className="text-center text-sm">
            Need Support?{' '}
            <Link to="/Contact_Us" className="font-medium text-brand-700 underline">
              Help?
            </Link>
          </p>
          <CheckoutMessages
            banner={banner.banner}
            bannerBox={banner.bannerBox}
            eventId={data.event.id}
            onDismiss={() => banner.setBanner(null)}
          />
          <ProceedButton
            text={proceedText}
            disabled={disabled}
            onProceed={proceed}
            className="hidden w-full px-4 md:block"
          />
        </aside>
      </div>

      <PhoneProceedBar
        grandTotalPaise={price.grandTotalPaise}
        text={proceedText}
        disabled={disabled}
        onProceed={proceed}
      />
      <PaymentWindowLayers payment={payment} />
    </div>
  );
}
