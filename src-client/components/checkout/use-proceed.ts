import { useNavigate } from '@tanstack/react-router';
import { CHECKOUT_INCOMPLETE_HEADING, type TicketDetails } from '../../../shared/checkout-schemas.ts';
import { checkoutAnswersOf } from '../../../shared/question-schemas.ts';
import type { useCurrentUser } from '../../lib/auth.ts';
import { useSelectedCity } from '../../lib/city-storage.ts';
import { trpc } from '../../lib/trpc.ts';
import { storedAdmissionPass } from '../../lib/waiting-room-storage.ts';
import { startErrorBanner } from './checkout-banner.ts';
import type { checkoutPrice, SelectedLine } from './checkout-price.ts';
import type { useCheckoutBanner } from './use-checkout-banner.ts';
import type { useCheckoutForm } from './use-checkout-form.ts';
import { type PaymentSession, usePaymentWindow } from './use-payment-window.tsx';

/**
 * Proceed, from the click to the payment window: signed in, the form complete, a hold and a payment
 * session from the server, then the window. Every way it can end without a booking releases the hold and
 * says why in the banner.
 */
export function useProceed({
  me,
  order,
  form,
  priced,
  banner,
}: {
  me: ReturnType<typeof useCurrentUser>;
  order: { eventId: string; dateId: string; slotId: string; lines: SelectedLine[] };
  form: ReturnType<typeof useCheckoutForm>;
  priced: ReturnType<typeof checkoutPrice>;
  banner: ReturnType<typeof useCheckoutBanner>;
}) {
  const navigate = useNavigate();
  const city = useSelectedCity();
  const config = trpc.payments.config.useQuery(undefined, { staleTime: Number.POSITIVE_INFINITY });
  const start = trpc.payments.start.useMutation();
  const release = trpc.payments.release.useMutation();
  const { setBanner, showResult } = banner;

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

  const endAttempt = (holdId: string, reason: 'cancelled' | 'failed' | 'expired', message: string) => {
    payment.stop();
    showResult({ message, tone: reason === 'cancelled' ? 'notice' : 'error' });
    release.mutate({ holdId, reason });
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
    const problems = form.check(priced.addressRequired);
    if (problems.length > 0) return setBanner({ message: CHECKOUT_INCOMPLETE_HEADING, items: problems });

    payment.begin();
    let current: PaymentSession;
    try {
      current = await start.mutateAsync({
        eventId: order.eventId,
        selectedDate: order.dateId,
        selectedSlot: order.slotId,
        selectedTickets: order.lines.map((l) => ({ ticketTypeId: l.type.id, quantity: l.quantity })),
        ticketDetails: {
          ...(form.details as TicketDetails),
          buyerAddress: priced.addressRequired ? form.details.buyerAddress : undefined,
        },
        userCity: city.storedName ?? undefined,
        admissionPass: storedAdmissionPass(order.eventId) ?? undefined,
        discountCode: priced.discountCode,
        answers: checkoutAnswersOf(form.answers),
        addOns: priced.chosenAddOns.length > 0 ? priced.chosenAddOns : undefined,
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

  const busy = payment.phase !== 'idle';
  return {
    payment,
    proceed,
    onSessionExpired: () => {
      const { session } = payment;
      if (session) endAttempt(session.holdId, 'expired', 'Payment session expired. Please try again.');
    },
    disabled: busy || config.isPending,
    proceedText: me.isPending ? 'Loading Details...' : busy ? 'Processing...' : 'Proceed',
  };
}
