import { createLazyRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatDateWithTimeRange, formatInIndia } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { bookingFeeLabel, TICKET_GST_LABEL } from '../../../shared/pricing.ts';
import {
  type PaymentSession,
  PaymentWindowLayers,
  usePaymentWindow,
} from '../../components/checkout/use-payment-window.tsx';
import { LoadingText, NoticeText } from '../../components/status-screens.tsx';
import { messageOf } from '../../lib/auth.ts';
import { trpc } from '../../lib/trpc.ts';

export const Route = createLazyRoute('/_buyer/_account/waitlist/offers/$entryId')({ component: OfferPage });

/**
 * The waiting-list offer: the seats are already held for this account (the offer is a hold), so there
 * is nothing to choose: the tickets, the amounts the server computed when it held them, and Pay, which
 * opens the payment window for that hold. Closing the window keeps the offer until its time is up.
 */
function OfferPage() {
  const { entryId } = Route.useParams();
  const offer = trpc.waitlist.offer.useQuery({ entryId });
  const pay = trpc.waitlist.payOffer.useMutation();
  const [message, setMessage] = useState<string | null>(null);
  const payment = usePaymentWindow({
    onFailure: (_, error) => {
      payment.stop();
      setMessage(`Payment failed: ${error.description ?? 'Unknown error'}. You can try again.`);
    },
    // The seats stay held for this account until the offer's time is up: Pay opens the window again.
    onDismiss: () => {
      payment.stop();
      setMessage('Payment was cancelled. Your tickets stay held until the time shown.');
    },
    onDeclined: setMessage,
    onConfirmError: (err) => setMessage(messageOf(err, 'Failed to process booking. Please contact support.')),
  });
  const { phase } = payment;

  if (offer.isPending) return <LoadingText />;
  if (!offer.data) return <NoticeText text={messageOf(offer.error, 'Waiting-list entry not found')} />;
  const o = offer.data;

  const onPay = async () => {
    setMessage(null);
    payment.begin();
    let current: PaymentSession;
    try {
      current = await pay.mutateAsync({ entryId });
    } catch (err) {
      payment.abandon();
      setMessage(messageOf(err, 'Failed to create order. Please try again.'));
      void offer.refetch();
      return;
    }
    if (!(await payment.open(current))) {
      setMessage('Razorpay SDK failed to load. Please check your internet connection.');
    }
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
      <PaymentWindowLayers payment={payment} />
    </section>
  );
}
