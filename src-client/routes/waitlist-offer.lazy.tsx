import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { formatDateWithTimeRange, formatInIndia } from '../../shared/dates.ts';
import { formatPaiseExact } from '../../shared/money.ts';
import { bookingFeeLabel, TICKET_GST_LABEL } from '../../shared/pricing.ts';
import { ConfirmingOverlay, SuccessOverlay } from '../components/checkout/checkout-overlays.tsx';
import {
  loadRazorpayScript,
  openRazorpayWindow,
  type PaymentCallbacks,
  type PaymentSuccess,
} from '../components/checkout/razorpay-window.ts';
import { SimulatorDialog } from '../components/checkout/simulator-dialog.tsx';
import { LoadingText, NoticeText } from '../components/status-screens.tsx';
import { messageOf } from '../lib/auth.ts';
import { type RouterOutputs, trpc } from '../lib/trpc.ts';

export const Route = createLazyRoute('/waitlist/offers/$entryId')({ component: OfferPage });

type Session = RouterOutputs['waitlist']['payOffer'];
type Phase = 'idle' | 'opening' | 'paying' | 'confirming' | 'success';
/** As on the checkout: the success overlay shows for 2 s before the ticket opens. */
const REDIRECT_AFTER_MS = 2000;

/**
 * The waiting-list offer: the seats are already held for this account (the offer is a hold), so there
 * is nothing to choose: the tickets, the amounts the server computed when it held them, and Pay, which
 * opens the payment window for that hold. Closing the window keeps the offer until its time is up.
 */
function OfferPage() {
  const { entryId } = Route.useParams();
  const navigate = useNavigate();
  const offer = trpc.waitlist.offer.useQuery({ entryId });
  const pay = trpc.waitlist.payOffer.useMutation();
  const confirm = trpc.payments.confirm.useMutation();
  const [phase, setPhase] = useState<Phase>('idle');
  const [session, setSession] = useState<Session | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [bookingId, setBookingId] = useState<string | null>(null);
  const closeWindow = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (phase !== 'success' || !bookingId) return;
    const timer = setTimeout(
      () => navigate({ to: '/ticket/$bookingId', params: { bookingId }, replace: true }),
      REDIRECT_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [phase, bookingId, navigate]);

  if (offer.isPending) return <LoadingText />;
  if (!offer.data) return <NoticeText text={messageOf(offer.error, 'Waiting-list entry not found')} />;
  const o = offer.data;

  const settle = async (current: Session, result: PaymentSuccess) => {
    closeWindow.current = null;
    setSession(null);
    setPhase('confirming');
    try {
      const outcome = await confirm.mutateAsync({
        orderId: result.razorpay_order_id || current.orderId,
        paymentId: result.razorpay_payment_id,
        signature: result.razorpay_signature,
      });
      if (outcome.outcome === 'booked') {
        setBookingId(outcome.bookingId);
        setPhase('success');
      } else {
        setPhase('idle');
        setMessage(`Booking Error: ${outcome.message}`);
      }
    } catch (err) {
      setPhase('idle');
      setMessage(messageOf(err, 'Failed to process booking. Please contact support.'));
    }
  };
  const callbacksFor = (current: Session): PaymentCallbacks => ({
    onSuccess: (result) => void settle(current, result),
    onFailure: (error) => {
      closeWindow.current = null;
      setSession(null);
      setPhase('idle');
      setMessage(`Payment failed: ${error.description ?? 'Unknown error'}. You can try again.`);
    },
    // The seats stay held for this account until the offer's time is up: Pay opens the window again.
    onDismiss: () => {
      closeWindow.current = null;
      setSession(null);
      setPhase('idle');
      setMessage('Payment was cancelled. Your tickets stay held until the time shown.');
    },
  });

  const onPay = async () => {
    setMessage(null);
    setPhase('opening');
    let current: Session;
    try {
      current = await pay.mutateAsync({ entryId });
    } catch (err) {
      setPhase('idle');
      setMessage(messageOf(err, 'Failed to create order. Please try again.'));
      void offer.refetch();
      return;
    }
    if (current.gateway === 'razorpay') {
      if (!(await loadRazorpayScript())) {
        setPhase('idle');
        return setMessage('Razorpay SDK failed to load. Please check your internet connection.');
      }
      closeWindow.current = openRazorpayWindow(
        {
          keyId: current.keyId,
          orderId: current.orderId,
          amountPaise: current.amountPaise,
          currency: current.currency,
          name: current.name,
          description: current.description,
          prefill: current.prefill,
          notes: current.notes,
          timeoutSeconds: Math.max(1, Math.floor((Date.parse(current.sessionExpiresAt) - Date.now()) / 1000)),
        },
        callbacksFor(current),
      );
    }
    setSession(current);
    setPhase('paying');
  };

  const ended =
    o.status === 'booked'
      ? 'You booked these tickets. They are in My Bookings.'
      : o.status === 'waiting'
        ? 'You are on the waiting list. When seats come back, we hold them for you and e-mail you.'
        : o.status === 'left'
          ? 'You left this waiting list.'
          : 'This offer has ended: its seats have passed to the next person on the waiting list.';

  return (
    <section className="mx-auto w-full max-w-lg px-4 py-8 md:py-12">
      <div className="rounded-xl border border-gray-200 p-5 shadow-sm md:p-6">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Waiting list</p>
        <h1 className="mt-1 text-2xl font-bold">{o.eventName}</h1>
        <p className="mt-2 text-gray-700">{formatDateWithTimeRange(o.slotStart, o.slotEnd)}</p>
        <p className="text-gray-700">{o.eventLocation}</p>

        {o.live && o.totalPaise !== null ? (
          <>
            <p className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-amber-900" data-testid="offer-deadline">
              Held for you until <strong>{formatInIndia(o.payBy!, 'h:mm a, d MMM')}</strong>
            </p>
            <dl className="mt-4 space-y-2 text-sm" data-testid="offer-amounts">
              <div className="flex justify-between gap-2">
                <dt>
                  {o.ticketTypeName} × {o.quantity}
                </dt>
                <dd>{formatPaiseExact(o.subtotalPaise ?? 0)}</dd>
              </div>
              {(o.admissionTaxPaise ?? 0) > 0 && (
                <div className="flex justify-between gap-2 text-gray-600">
                  <dt>{TICKET_GST_LABEL}</dt>
                  <dd>{formatPaiseExact(o.admissionTaxPaise ?? 0)}</dd>
                </div>
              )}
              <div className="flex justify-between gap-2 text-gray-600">
                <dt>{bookingFeeLabel(o.igstPaise ?? 0)}</dt>
                <dd>{formatPaiseExact((o.feePaise ?? 0) + (o.igstPaise ?? 0))}</dd>
              </div>
              <div className="flex justify-between gap-2 border-t border-gray-200 pt-2 text-base font-bold">
                <dt>Total</dt>
                <dd>{formatPaiseExact(o.totalPaise)}</dd>
              </div>
            </dl>
            <div aria-live="assertive" className="mt-4">
              {message && (
                <p className="rounded-md bg-red-50 p-3 text-sm text-red-800" role="alert">
                  {message}
                </p>
              )}
            </div>
            <button
              type="button"
              onClick={onPay}
              disabled={phase !== 'idle'}
              className="mt-4 w-full rounded-md bg-brand-600 px-4 py-3 text-lg font-semibold text-white hover:bg-brand-700 disabled:opacity-70"
            >
              {phase === 'idle' ? `Pay ${formatPaiseExact(o.totalPaise)}` : 'Processing...'}
            </button>
          </>
        ) : (
          <p className="mt-5 rounded-md bg-gray-50 p-3 text-gray-800" role="status">
            {ended}
          </p>
        )}
        <p className="mt-5 text-center text-sm">
          <Link to="/my-bookings" className="font-medium text-brand-700 underline">
            My Bookings
          </Link>
        </p>
      </div>
      {session && phase === 'paying' && session.gateway === 'simulator' && (
        <SimulatorDialog
          options={{
            keyId: session.keyId,
            orderId: session.orderId,
            amountPaise: session.amountPaise,
            currency: session.currency,
            name: session.name,
            description: session.description,
            prefill: session.prefill,
            notes: session.notes,
          }}
          callbacks={callbacksFor(session)}
        />
      )}
      {phase === 'confirming' && <ConfirmingOverlay />}
      {phase === 'success' && bookingId && <SuccessOverlay bookingId={bookingId} />}
    </section>
  );
}
