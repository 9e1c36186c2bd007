import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import {
  CHECKOUT_INCOMPLETE_HEADING,
  type TicketDetails,
  ticketDetailsFieldProblems,
  ticketDetailsProblems,
} from '../../../shared/checkout-schemas.ts';
import { formatDateWithTimeRange } from '../../../shared/dates.ts';
import { isValidGstinValue } from '../../../shared/gst-schemas.ts';
import { HOARDING_MESSAGES } from '../../../shared/hoarding-messages.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { checkoutPriceBreakdown, feeTaxSplitFor } from '../../../shared/pricing.ts';
import { answerProblems, checkoutAnswersOf } from '../../../shared/question-schemas.ts';
import { recipientAddressRequired } from '../../../shared/recipient-address.ts';
import { INDIAN_STATES, isIndianState } from '../../../shared/states.ts';
import { WAITING_ROOM_MESSAGES } from '../../../shared/waiting-room.ts';
import {
  type AddOnChoice,
  AddOnPicker,
  addOnsFor,
  addOnsTotalPaise,
} from '../../components/checkout/add-on-picker.tsx';
import { AttendeeQuestions } from '../../components/checkout/attendee-questions.tsx';
import { CheckoutCard } from '../../components/checkout/checkout-card.tsx';
import type { CheckoutSearch } from '../../components/checkout/checkout-search.ts';
import { DiscountCodeField, type DiscountQuote } from '../../components/checkout/discount-code-field.tsx';
import {
  EditableField,
  type EditableFieldHandle,
  focusInView,
} from '../../components/checkout/editable-field.tsx';
import { HoldCountdown } from '../../components/checkout/hold-countdown.tsx';
import { PaymentErrorBanner } from '../../components/checkout/payment-error-banner.tsx';
import { PaymentSummary } from '../../components/checkout/payment-summary.tsx';
import {
  type PaymentSession,
  PaymentWindowLayers,
  usePaymentWindow,
} from '../../components/checkout/use-payment-window.tsx';
import { EventLoadError } from '../../components/event-load-error.tsx';
import { ResendVerification } from '../../components/resend-verification.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { VerifyEmailNotice } from '../../components/verify-email-notice.tsx';
import { useCurrentUser } from '../../lib/auth.ts';
import { useSelectedCity } from '../../lib/city-storage.ts';
import { fieldErrorsOf, type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { storedAdmissionPass } from '../../lib/waiting-room-storage.ts';
import { checkoutRoute } from './checkout.tsx';

export const Route = createLazyRoute('/_buyer/checkout-tickets')({ component: CheckoutPage });

const NO_BOOKING_DATA = 'No booking data found. Please go back and select your tickets again.';
const DETAILS_KEY = 'jalsa.checkout.details';

type Options = RouterOutputs['tickets']['options'];
/** `notice`: what the buyer did themselves (closed the payment window), said without 'Payment Error:'. */
/** `verify`: Proceed was refused for an unverified e-mail address; the banner offers to resend the link. */
type Banner = {
  message: string;
  items?: string[];
  tone?: 'error' | 'notice';
  verify?: boolean;
  /** The event's waiting room admits buyers in turn: a link to it beside the message. */
  waitingRoom?: boolean;
};

function CheckoutPage() {
  const search = checkoutRoute.useSearch();
  const complete =
    search.eventId && search.selectedDate && search.selectedSlot && (search.selectedTickets?.length ?? 0) > 0;
  if (!complete) return <NoticeText text={NO_BOOKING_DATA} />;
  return <CheckoutLoader search={search as Required<Pick<CheckoutSearch, 'eventId'>> & CheckoutSearch} />;
}

function CheckoutLoader({ search }: { search: CheckoutSearch & { eventId: string } }) {
  // With the buyer's access code, the hidden types it unlocks are in the answer (ADR 0038).
  const options = trpc.tickets.options.useQuery({ eventId: search.eventId, code: search.code });
  if (options.isPending) return <LoadingText />;
  if (options.error) return <EventLoadError error={options.error} />;
  const date = options.data.dates.find((d) => d.id === search.selectedDate);
  const slot = date?.slots.find((s) => s.id === search.selectedSlot);
  const lines = (search.selectedTickets ?? []).flatMap((sel) => {
    const type = slot?.ticketTypes.find((t) => t.id === sel.ticketTypeId);
    return type ? [{ type, quantity: sel.quantity }] : [];
  });
  if (!date || !slot || lines.length === 0) return <NoticeText text={NO_BOOKING_DATA} />;
  return <Checkout data={options.data} dateId={date.id} slot={slot} lines={lines} code={search.code} />;
}

type Slot = Options['dates'][number]['slots'][number];
type Line = { type: Slot['ticketTypes'][number]; quantity: number };

function Checkout({
  data,
  dateId,
  slot,
  lines,
  code,
}: {
  data: Options;
  dateId: string;
  slot: Slot;
  lines: Line[];
  /** The access code the buyer came with: applied at once, as if typed into "Discount code". */
  code?: string;
}) {
  const navigate = useNavigate();
  const me = useCurrentUser();
  const city = useSelectedCity();
  const config = trpc.payments.config.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  const start = trpc.payments.start.useMutation();
  const release = trpc.payments.release.useMutation();

  const [details, setDetails] = useStoredDetails();
  // After the first Proceed, each field shows its own problem until it is fixed.
  const [detailsChecked, setDetailsChecked] = useState(false);
  const [banner, setBanner] = useState<Banner | null>(null);
  // Attendee names and answers to the ticket types' questions (issue 40), keyed as Proceed sends them.
  const questions = trpc.questions.checkoutForm.useQuery({ eventId: data.event.id, slotId: slot.id });
  const questionForms = questions.data ?? [];
  const quantities = new Map(lines.map((l) => [l.type.id, l.quantity]));
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [answersChecked, setAnswersChecked] = useState(false);
  // A discount code the server priced (issue 40); null: list prices.
  const [discount, setDiscount] = useState<DiscountQuote | null>(null);
  const payment = usePaymentWindow({
    onFailure: (current, error) =>
      endAttempt(current.holdId, 'failed', `Payment failed: ${error.description ?? 'Unknown error'}`),
    onDismiss: (current) =>
      endAttempt(current.holdId, 'cancelled', 'Payment was cancelled. You can try again when ready.'),
    onDeclined: (message) => showResult({ message }),
    onConfirmError: (err) => {
      const status = (err as { data?: { httpStatus?: number } }).data?.httpStatus;
      showResult({
        message:
          status && status < 500
            ? (err as Error).message
            : 'Failed to process booking. Please contact support.',
      });
    },
  });
  const { phase, session } = payment;
  const fields = {
    name: useRef<EditableFieldHandle>(null),
    email: useRef<EditableFieldHandle>(null),
    phone: useRef<EditableFieldHandle>(null),
  };
  const stateSelect = useRef<HTMLSelectElement>(null);
  const bannerBox = useRef<HTMLDivElement>(null);
  // A result that arrives while the buyer looks elsewhere (a phone's sticky Proceed bar, a closed payment
  // window) is scrolled to; validation instead takes the buyer to the first field to fix.
  const [revealBanner, setRevealBanner] = useState(0);
  useEffect(() => {
    if (revealBanner > 0) bannerBox.current?.scrollIntoView({ block: 'center' });
  }, [revealBanner]);
  // After the render that shows each field's problem, so that focus lands on a field already described.
  const [revealField, setRevealField] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per Proceed, on that Proceed's details.
  useEffect(() => {
    if (revealField === 0) return;
    const problems = ticketDetailsFieldProblems(details);
    if (problems.name) fields.name.current?.reveal();
    else if (problems.email) fields.email.current?.reveal();
    else if (problems.phone) fields.phone.current?.reveal();
    else if (problems.state) focusInView(stateSelect.current);
  }, [revealField]);
  const showResult = (next: Banner) => {
    setBanner(next);
    setRevealBanner((n) => n + 1);
  };

  // Prefill from the profile once it has loaded, without overwriting what the buyer already typed.
  const prefilled = useRef(false);
  useEffect(() => {
    if (prefilled.current || !me.data) return;
    prefilled.current = true;
    setDetails((d) => ({
      ...d,
      name: d.name || me.data?.name || '',
      email: d.email || me.data?.email || '',
      phone: d.phone || me.data?.phone || '',
      state: d.state || (me.data?.state && isIndianState(me.data.state) ? me.data.state : ''),
    }));
  }, [me.data, setDetails]);

  // The server says how this event is taxed (data.taxes); Proceed charges with the same function. With a
  // discount code applied, the price is the server's quote (the client never prices a code itself).
  const listPrice = checkoutPriceBreakdown(
    lines.map((l) => ({
      pricePaise: l.type.pricePaise,
      quantity: l.quantity,
      personsPerTicket: l.type.personAllowedPerTicket,
    })),
    data.event.platformFeeRate,
    data.taxes,
  );
  const ticketPrice = discount?.price ?? listPrice;
  // Add-ons (ADR 0041): priced as the server will, added to the total beside the tickets (no fee on them).
  const [addOnChoice, setAddOnChoice] = useState<AddOnChoice>({});
  const addOnTaxes = {
    pricesPlusGst: data.taxes.admissionTaxRatePercent !== null,
    intraState: data.taxes.admissionIntraState,
  };
  const offeredAddOns = addOnsFor(
    data.addOns,
    lines.map((l) => l.type.id),
  );
  const addOnsPaise = addOnsTotalPaise(offeredAddOns, addOnChoice, addOnTaxes);
  const price = { ...ticketPrice, grandTotalPaise: ticketPrice.grandTotalPaise + addOnsPaise };
  const chosenAddOns = offeredAddOns
    .flatMap((a) => a.variants)
    .filter((v) => (addOnChoice[v.id] ?? 0) > 0)
    .map((v) => ({ variantId: v.id, quantity: addOnChoice[v.id]! }));
  // The billing address only when the GST invoice must show it: the server's rule, decided again at Proceed.
  const addressRequired = recipientAddressRequired({
    buyerGstin: details.buyerGstin,
    invoiceValuePaise: price.subtotalPaise + price.admissionTaxPaise,
  });
  const fieldProblems = detailsChecked ? ticketDetailsFieldProblems(details, { addressRequired }) : {};

  // The fee invoice's rule (shared/pricing.ts feeTaxSplitFor): the GSTIN's state, else the state chosen.
  const typedGstin = details.buyerGstin.trim().toUpperCase();
  const buyerGstin = isValidGstinValue(typedGstin) ? typedGstin : null;
  const feeSplit =
    data.taxes.feeSupplierState && (details.state || buyerGstin)
      ? feeTaxSplitFor(data.taxes.feeSupplierState, { state: details.state, buyerGstin })
      : null;

  const endAttempt = (holdId: string, reason: 'cancelled' | 'failed' | 'expired', message: string) => {
    payment.stop();
    showResult({ message, tone: reason === 'cancelled' ? 'notice' : 'error' });
    release.mutate({ holdId, reason });
  };

  const onSessionExpired = () => {
    if (session) endAttempt(session.holdId, 'expired', 'Payment session expired. Please try again.');
  };

  const proceed = async () => {
    setBanner(null);
    if (me.isPending) return setBanner({ message: 'Please wait while we load your details...' });
    if (me.data === null) {
      setBanner({ message: 'Please log in to continue with your booking.' });
      return navigate({
        to: '/login',
        search: { redirect: window.location.pathname + window.location.search },
      });
    }
    setDetailsChecked(true);
    setAnswersChecked(true);
    const problems = [
      ...ticketDetailsProblems(details, { addressRequired }),
      ...Object.values(answerProblems(questionForms, quantities, answers)),
    ];
    if (problems.length > 0) {
      setBanner({ message: CHECKOUT_INCOMPLETE_HEADING, items: problems });
      return setRevealField((n) => n + 1);
    }

    payment.begin();
    let current: PaymentSession;
    try {
      current = await start.mutateAsync({
        eventId: data.event.id,
        selectedDate: dateId,
        selectedSlot: slot.id,
        selectedTickets: lines.map((l) => ({ ticketTypeId: l.type.id, quantity: l.quantity })),
        ticketDetails: {
          ...(details as TicketDetails),
          buyerAddress: addressRequired ? details.buyerAddress : undefined,
        },
        userCity: city.storedName ?? undefined,
        admissionPass: storedAdmissionPass(data.event.id) ?? undefined,
        discountCode: discount?.code,
        answers: checkoutAnswersOf(answers),
        addOns: chosenAddOns.length > 0 ? chosenAddOns : undefined,
      });
    } catch (err) {
      payment.abandon();
      return showResult(startErrorBanner(err));
    }

    try {
      if (!(await payment.open(current))) {
        release.mutate({ holdId: current.holdId, reason: 'cancelled' });
        return showResult({ message: 'Razorpay SDK failed to load. Please check your internet connection.' });
      }
    } catch {
      payment.abandon();
      release.mutate({ holdId: current.holdId, reason: 'cancelled' });
      return showResult({ message: 'Failed to initiate payment. Please try again.' });
    }
  };

  const busy = phase !== 'idle';
  const proceedText = me.isPending ? 'Loading Details...' : busy ? 'Processing...' : 'Proceed';
  const firstSlot = slot;

  return (
    <div className="mx-auto max-w-5xl px-4 pt-6 pb-28 md:pb-6">
      <h1 className="text-2xl font-bold">Checkout</h1>
      {me.data && !me.data.isEmailVerified && <VerifyEmailNotice email={me.data.email} at="checkout" />}
      {session && phase === 'paying' && (
        <div className="mt-4">
          <HoldCountdown until={session.sessionExpiresAt} onExpire={onSessionExpired} />
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

          <CheckoutCard id="details-heading" title="Ticket Details">
            {me.error && (
              <p role="status" className="mt-2 text-sm text-red-700">
                Failed to load user details. Please refresh the page or fill in your details manually.
              </p>
            )}
            <div className="mt-2">
              <EditableField
                label="Name"
                value={details.name}
                placeholder="Your full name"
                autoComplete="name"
                error={fieldProblems.name}
                ref={fields.name}
                onChange={(name) => setDetails((d) => ({ ...d, name }))}
              />
              <EditableField
                label="Email"
                type="email"
                value={details.email}
                placeholder="you@example.com"
                autoComplete="email"
                error={fieldProblems.email}
                ref={fields.email}
                onChange={(email) => setDetails((d) => ({ ...d, email }))}
              />
              <EditableField
                label="Phone"
                type="tel"
                value={details.phone}
                placeholder="10-digit mobile number"
                autoComplete="tel"
                error={fieldProblems.phone}
                ref={fields.phone}
                onChange={(phone) => setDetails((d) => ({ ...d, phone }))}
              />
              <div className="py-3">
                <label
                  htmlFor="checkout-state"
                  className="block text-xs font-medium uppercase tracking-wide text-gray-500"
                >
                  State
                </label>
                <select
                  id="checkout-state"
                  ref={stateSelect}
                  value={details.state}
                  aria-invalid={fieldProblems.state ? true : undefined}
                  aria-describedby={fieldProblems.state ? 'checkout-state-error' : undefined}
                  onChange={(e) => setDetails((d) => ({ ...d, state: e.target.value }))}
                  className="mt-1 w-full rounded-md border border-gray-300 bg-white px-3 py-2"
                >
                  <option value="">Select your state</option>
                  {INDIAN_STATES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
                {fieldProblems.state && (
                  <p id="checkout-state-error" className="mt-1 text-sm text-red-700">
                    {fieldProblems.state}
                  </p>
                )}
              </div>
              <details className="py-3" open={Boolean(details.buyerGstin || details.buyerLegalName)}>
                <summary className="cursor-pointer text-sm text-gray-700">
                  Need a GST invoice for your business? (optional)
                </summary>
                {(['buyerGstin', 'buyerLegalName'] as const).map((field) => (
                  <div key={field} className="pt-3">
                    <label
                      htmlFor={`checkout-${field}`}
                      className="block text-xs font-medium uppercase tracking-wide text-gray-500"
                    >
                      {field === 'buyerGstin' ? 'GSTIN' : 'Legal name (as registered for GST)'}
                    </label>
                    <input
                      id={`checkout-${field}`}
                      value={details[field]}
                      maxLength={field === 'buyerGstin' ? 20 : 120}
                      autoCapitalize={field === 'buyerGstin' ? 'characters' : undefined}
                      aria-invalid={fieldProblems[field] ? true : undefined}
                      aria-describedby={fieldProblems[field] ? `checkout-${field}-error` : undefined}
                      onChange={(e) => setDetails((d) => ({ ...d, [field]: e.target.value }))}
                      className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2"
                    />
                    {fieldProblems[field] && (
                      <p id={`checkout-${field}-error`} className="mt-1 text-sm text-red-700">
                        {fieldProblems[field]}
                      </p>
                    )}
                  </div>
                ))}
              </details>
              {addressRequired && (
                <div className="py-3">
                  <label
                    htmlFor="checkout-buyerAddress"
                    className="block text-xs font-medium uppercase tracking-wide text-gray-500"
                  >
                    Billing address (printed on your GST invoice)
                  </label>
                  <textarea
                    id="checkout-buyerAddress"
                    value={details.buyerAddress}
                    maxLength={300}
                    rows={2}
                    autoComplete="street-address"
                    aria-invalid={fieldProblems.buyerAddress ? true : undefined}
                    aria-describedby={fieldProblems.buyerAddress ? 'checkout-buyerAddress-error' : undefined}
                    onChange={(e) => setDetails((d) => ({ ...d, buyerAddress: e.target.value }))}
                    className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2"
                  />
                  {fieldProblems.buyerAddress && (
                    <p id="checkout-buyerAddress-error" className="mt-1 text-sm text-red-700">
                      {fieldProblems.buyerAddress}
                    </p>
                  )}
                </div>
              )}
            </div>
          </CheckoutCard>

          <AttendeeQuestions
            forms={questionForms}
            quantities={quantities}
            values={answers}
            problems={answersChecked ? answerProblems(questionForms, quantities, answers) : {}}
            onChange={(key, value) => setAnswers((a) => ({ ...a, [key]: value }))}
          />
        </div>

        <aside className="space-y-4">
          <CheckoutCard id="event-summary-heading" title={data.event.name}>
            <p className="text-sm text-gray-600">{data.event.eventLocationText}</p>
            <p className="mt-1 text-sm text-gray-600">
              {formatDateWithTimeRange(firstSlot.startTime, firstSlot.endTime)}
            </p>
            <ul className="mt-3 space-y-1 text-sm">
              {lines.map((l) => (
                <li key={l.type.id} className="flex justify-between gap-2">
                  <span>
                    {l.type.name} × {l.quantity}
                  </span>
                  <span>{formatPaiseExact(l.type.pricePaise * l.quantity)}</span>
                </li>
              ))}
            </ul>
          </CheckoutCard>

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
            addOns={offeredAddOns}
            choice={addOnChoice}
            onChange={setAddOnChoice}
            taxes={addOnTaxes}
          />

          <PaymentSummary
            addOnsPaise={addOnsPaise}
            price={price}
            ticketTaxRatePercent={data.taxes.admissionTaxRatePercent}
            feeTaxSplit={feeSplit}
            discount={discount}
          />

          <p className="text-center text-sm">
            Need Support?{' '}
            <Link to="/Contact_Us" className="font-medium text-brand-700 underline">
              Help?
            </Link>
          </p>

          {/* Mounted from the start so that what appears in it is announced; beside Proceed, where the buyer is. */}
          <div aria-live="assertive" aria-atomic="true" data-testid="checkout-messages">
            {banner && (
              <PaymentErrorBanner
                ref={bannerBox}
                message={banner.message}
                items={banner.items}
                tone={banner.tone}
                onDismiss={() => setBanner(null)}
                action={
                  banner.verify ? (
                    <ResendVerification
                      label="Resend verification e-mail"
                      sentText="We've sent you a new verification email. Open its link, then press Proceed again."
                      className="mt-2 font-semibold underline"
                    />
                  ) : banner.waitingRoom ? (
                    <Link
                      to="/events/$eventId/waiting-room"
                      params={{ eventId: data.event.id }}
                      className="mt-2 inline-block font-semibold underline"
                    >
                      Go to the waiting room
                    </Link>
                  ) : undefined
                }
              />
            )}
          </div>

          <button
            type="button"
            onClick={proceed}
            disabled={busy || config.isPending}
            className="hidden w-full rounded-md bg-brand-600 px-4 py-3 text-lg font-semibold text-white hover:bg-brand-700 disabled:opacity-70 md:block"
          >
            {proceedText}
          </button>
        </aside>
      </div>

      {/* On a phone the total and Proceed stay on screen, as on ticket selection. */}
      <div
        data-testid="checkout-bar"
        className="fixed inset-x-0 bottom-0 z-20 border-t border-gray-200 bg-white shadow-[0_-2px_8px_rgba(0,0,0,0.06)] md:hidden"
      >
        <div className="flex items-center justify-between gap-4 px-4 py-3">
          <div>
            <p className="text-xs text-gray-600">Grand Total</p>
            <p className="text-lg font-bold" data-testid="bar-grand-total">
              {formatPaiseExact(price.grandTotalPaise)}
            </p>
          </div>
          <button
            type="button"
            onClick={proceed}
            disabled={busy || config.isPending}
            className="rounded-md bg-brand-600 px-6 py-3 text-lg font-semibold text-white hover:bg-brand-700 disabled:opacity-70"
          >
            {proceedText}
          </button>
        </div>
      </div>

      <PaymentWindowLayers payment={payment} />
    </div>
  );
}

/** §8 banner texts for a Proceed that did not get as far as the payment window. */
function startErrorBanner(err: unknown): Banner {
  const data = (err as { data?: { code?: string; httpStatus?: number } } | null)?.data;
  const message = (err as Error | null)?.message ?? '';
  if (!data?.httpStatus) return { message: 'Failed to create order. Please check your connection.' };
  if (data.code === 'UNAUTHORIZED') return { message: 'Please log in to continue with your booking.' };
  // Not a payment problem: a step the buyer can take, with the action beside it.
  if (message === HOARDING_MESSAGES.emailNotVerified) return { message, verify: true, tone: 'notice' };
  if (message === WAITING_ROOM_MESSAGES.passRequired) return { message, waitingRoom: true, tone: 'notice' };
  if (data.code === 'BAD_REQUEST') {
    const items = [...new Set(Object.values(fieldErrorsOf(err)))];
    if (items.length > 0) return { message: CHECKOUT_INCOMPLETE_HEADING, items };
  }
  if (data.code === 'CONFLICT' || data.code === 'NOT_FOUND') return { message: `Booking Error: ${message}` };
  return { message: message || 'Failed to create order. Please try again.' };
}

/** The buyer's details survive a reload of the checkout (session storage, this tab only). */
function useStoredDetails() {
  const [details, setDetails] = useState<Record<keyof TicketDetails, string>>(() => {
    const empty = {
      name: '',
      email: '',
      phone: '',
      state: '',
      buyerGstin: '',
      buyerLegalName: '',
      buyerAddress: '',
    };
    try {
      const stored = JSON.parse(sessionStorage.getItem(DETAILS_KEY) ?? 'null') as Partial<
        typeof empty
      > | null;
      return { ...empty, ...stored };
    } catch {
      return empty;
    }
  });
  useEffect(() => {
    sessionStorage.setItem(DETAILS_KEY, JSON.stringify(details));
  }, [details]);
  return [details, setDetails] as const;
}
