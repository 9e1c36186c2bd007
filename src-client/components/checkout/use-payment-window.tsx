import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { ConfirmingOverlay, SuccessOverlay } from './checkout-overlays.tsx';
import {
  loadRazorpayScript,
  openRazorpayWindow,
  type PaymentCallbacks,
  type PaymentFailure,
  type PaymentSuccess,
  type PaymentWindowOptions,
} from './razorpay-window.ts';
import { SimulatorDialog } from './simulator-dialog.tsx';

/** What the server answers when a payment can begin (the checkout's Proceed, the offer page's Pay). */
export type PaymentSession = RouterOutputs['payments']['start'];
export type PaymentPhase = 'idle' | 'opening' | 'paying' | 'confirming' | 'success';
export type PaymentWindow = ReturnType<typeof usePaymentWindow>;

/** What each page says and does when a payment does not end in a booking. */
export interface PaymentOutcomeHandlers {
  onFailure: (session: PaymentSession, error: PaymentFailure) => void;
  onDismiss: (session: PaymentSession) => void;
  /** The payment went through but the server did not book it; `message` is ready to show. */
  onDeclined: (message: string) => void;
  /** The confirmation request itself failed. */
  onConfirmError: (error: unknown) => void;
}

/** Spec §9: the success overlay shows for 2000 ms before the redirect. */
const REDIRECT_AFTER_MS = 2000;

/**
 * The payment window shared by the checkout and the waiting-list offer: opens Razorpay's window (or the
 * simulator's, drawn by `PaymentWindowLayers`) for a session, confirms a successful payment with the
 * server, and after a booking shows the success overlay and goes to the ticket.
 */
export function usePaymentWindow(handlers: PaymentOutcomeHandlers) {
  const navigate = useNavigate();
  const confirm = trpc.payments.confirm.useMutation();
  const [phase, setPhase] = useState<PaymentPhase>('idle');
  const [session, setSession] = useState<PaymentSession | null>(null);
  const [bookingId, setBookingId] = useState<string | null>(null);
  const closeWindow = useRef<(() => void) | null>(null);

  // The overlay says 'Redirecting to your ticket...': it goes to that ticket (issue 17; the spec's target
  // was the bookings list). Replacing the page means Back cannot offer to pay for it again.
  useEffect(() => {
    if (phase !== 'success' || !bookingId) return;
    const timer = setTimeout(
      () => navigate({ to: '/ticket/$bookingId', params: { bookingId }, replace: true }),
      REDIRECT_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [phase, bookingId, navigate]);

  /** Closes the window if it is still open and goes back to idle. */
  const stop = () => {
    closeWindow.current?.();
    closeWindow.current = null;
    setSession(null);
    setPhase('idle');
  };

  const settle = async (current: PaymentSession, result: PaymentSuccess) => {
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
        handlers.onDeclined(`Booking Error: ${outcome.message}`);
      }
    } catch (err) {
      setPhase('idle');
      handlers.onConfirmError(err);
    }
  };

  const callbacksFor = (current: PaymentSession): PaymentCallbacks => ({
    onSuccess: (result) => void settle(current, result),
    onFailure: (error) => handlers.onFailure(current, error),
    onDismiss: () => handlers.onDismiss(current),
  });

  /**
   * Opens the window for a session the server just answered. False (and idle) when Razorpay's script
   * cannot be loaded; throws, leaving the phase to the caller, when Razorpay's window cannot be opened.
   */
  const open = async (current: PaymentSession): Promise<boolean> => {
    if (current.gateway === 'razorpay') {
      if (!(await loadRazorpayScript())) {
        setPhase('idle');
        return false;
      }
      closeWindow.current = openRazorpayWindow(
        {
          ...windowOptionsOf(current),
          timeoutSeconds: Math.max(
            1,
            Math.floor((new Date(current.sessionExpiresAt).getTime() - Date.now()) / 1000),
          ),
        },
        callbacksFor(current),
      );
    }
    setSession(current);
    setPhase('paying');
    return true;
  };

  return {
    phase,
    session,
    bookingId,
    /** Marks the wait for the server's session (the button shows 'Processing...'). */
    begin: () => setPhase('opening'),
    /** The server refused to start a payment: back to idle. */
    abandon: () => setPhase('idle'),
    open,
    stop,
    callbacksFor,
  };
}

/** The simulator's window while paying, then the confirming and success overlays. */
export function PaymentWindowLayers({ payment }: { payment: PaymentWindow }) {
  const { phase, session, bookingId } = payment;
  return (
    <>
      {session && phase === 'paying' && session.gateway === 'simulator' && (
        <SimulatorDialog options={windowOptionsOf(session)} callbacks={payment.callbacksFor(session)} />
      )}
      {phase === 'confirming' && <ConfirmingOverlay />}
      {phase === 'success' && bookingId && <SuccessOverlay bookingId={bookingId} />}
    </>
  );
}

function windowOptionsOf(session: PaymentSession): PaymentWindowOptions {
  return {
    keyId: session.keyId,
    orderId: session.orderId,
    amountPaise: session.amountPaise,
    currency: session.currency,
    name: session.name,
    description: session.description,
    prefill: session.prefill,
    notes: session.notes,
  };
}
