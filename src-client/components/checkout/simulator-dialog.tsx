import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { formatPaiseExact } from '../../../shared/money.ts';
import { ModalPanel } from '../modal.tsx';
import type {
  PaymentCallbacks,
  PaymentFailure,
  PaymentSuccess,
  PaymentWindowOptions,
} from './razorpay-window.ts';

/**
 * The offline simulator's checkout window: the same results as Razorpay's (a signed success, an error
 * object, or a dismissal), produced by the app's own simulator endpoints.
 */
export function SimulatorDialog({
  options,
  callbacks,
}: {
  options: PaymentWindowOptions;
  callbacks: PaymentCallbacks;
}) {
  const [busy, setBusy] = useState(false);
  const [failing, setFailing] = useState(false);
  const [description, setDescription] = useState('Your card was declined by the bank.');
  const [problem, setProblem] = useState<string | null>(null);

  const post = async (path: string, body?: object) => {
    setBusy(true);
    setProblem(null);
    try {
      const res = await fetch(`/api/simulator/orders/${encodeURIComponent(options.orderId)}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      const json = (await res.json()) as PaymentSuccess & { error?: PaymentFailure & { message?: string } };
      if (!res.ok) throw new Error(refusalMessage(json.error));
      return json;
    } catch (err) {
      setProblem(err instanceof Error ? err.message : 'The test gateway did not answer');
      return null;
    } finally {
      setBusy(false);
    }
  };

  const pay = async () => {
    const result = await post('pay');
    if (result) callbacks.onSuccess(result);
  };
  const fail = async () => {
    const result = await post('fail', { description });
    if (result?.error) callbacks.onFailure(result.error);
  };

  return (
    <ModalPanel
      open
      onOpenChange={(open) => {
        if (!open && !busy) callbacks.onDismiss();
      }}
      className="w-[min(92vw,420px)] p-6"
    >
      <Dialog.Title className="text-lg font-bold">{options.name} · Test payment</Dialog.Title>
      <Dialog.Description className="mt-1 text-sm text-gray-600">
        {options.description}. This is the offline payment simulator: no money moves.
      </Dialog.Description>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-gray-600">Amount</dt>
        <dd className="font-semibold">{formatPaiseExact(options.amountPaise)}</dd>
        <dt className="text-gray-600">Order</dt>
        <dd className="break-all font-mono text-xs leading-5">{options.orderId}</dd>
        <dt className="text-gray-600">Paying as</dt>
        <dd className="break-all">{options.prefill.email || options.prefill.name}</dd>
      </dl>
      {problem && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {problem}
        </p>
      )}
      {failing ? (
        <div className="mt-5 space-y-3">
          <label className="block text-sm font-medium" htmlFor="simulator-failure">
            Failure description
          </label>
          <input
            id="simulator-failure"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            className="w-full rounded-md border border-gray-300 px-3 py-2"
          />
          <div className="flex gap-2">
            <button
              type="button"
              onClick={fail}
              disabled={busy || !description.trim()}
              className="flex-1 rounded-md bg-red-700 px-4 py-2 font-semibold text-white disabled:opacity-60"
            >
              Fail payment
            </button>
            <button
              type="button"
              onClick={() => setFailing(false)}
              disabled={busy}
              className="rounded-md border border-gray-300 px-4 py-2"
            >
              Back
            </button>
          </div>
        </div>
      ) : (
        <div className="mt-5 flex flex-wrap gap-2">
          <button
            type="button"
            onClick={pay}
            disabled={busy}
            className="flex-1 rounded-md bg-green-700 px-4 py-2 font-semibold text-white disabled:opacity-60"
          >
            Pay {formatPaiseExact(options.amountPaise)}
          </button>
          <button
            type="button"
            onClick={() => setFailing(true)}
            disabled={busy}
            className="rounded-md border border-red-700 px-4 py-2 font-semibold text-red-700"
          >
            Fail
          </button>
          <Dialog.Close asChild>
            <button type="button" disabled={busy} className="rounded-md border border-gray-300 px-4 py-2">
              Dismiss
            </button>
          </Dialog.Close>
        </div>
      )}
    </ModalPanel>
  );
}

/** Shown when Pay or Fail is pressed again on an order the gateway already took a payment for. */
const ORDER_ALREADY_PAID_MESSAGE =
  'This order has already been paid, so it was not charged again. Your booking will appear under My Bookings shortly.';

/** The simulator's refusal, in words for the buyer: Razorpay's error object, or the simulator's own message. */
function refusalMessage(error: (PaymentFailure & { message?: string }) | undefined): string {
  if (error?.reason === 'order_already_paid') return ORDER_ALREADY_PAID_MESSAGE;
  return error?.message ?? error?.description ?? 'The test gateway did not answer';
}
