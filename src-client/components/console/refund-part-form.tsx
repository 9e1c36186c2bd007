import { useState } from 'react';
import { formatDateTime } from '../../../shared/dates.ts';
import { formatPaiseExact, rupeesToPaise } from '../../../shared/money.ts';
import { PART_REFUND_MESSAGES } from '../../../shared/partial-refund-schemas.ts';
import { serverRefusalOf } from '../../lib/server-field-errors.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { FormError, FormNotice } from '../auth-fields.tsx';
import { refreshAfterRefund } from './refresh-after-refund.ts';

type Booking = RouterOutputs['eventBookings']['booking'];

/** A booking's part refunds, each with its tickets, reason, state and credit notes (ADR 0043). */
export function PartRefunds({ booking }: { booking: Booking }) {
  const { parts, refundableLeft } = booking.partRefunds;
  if (parts.length === 0) return null;
  return (
    <div className="mt-3 space-y-2 text-sm">
      <h3 className="font-semibold text-gray-900">Part refunds</h3>
      <ul className="space-y-2">
        {parts.map((p) => (
          <li key={p.id} className="border-l-2 border-gray-200 pl-3">
            <p className="text-gray-900">
              <strong>{formatPaiseExact(p.amountPaise)}</strong>{' '}
              {p.status === 'processed' ? (
                <span className="text-green-800">refunded</span>
              ) : (
                <span className={p.lastError ? 'text-red-800' : 'text-amber-800'}>
                  {p.lastError ? 'failed, retrying' : 'pending'}
                </span>
              )}{' '}
              · {p.kind === 'buyer' ? 'by the buyer' : 'by the organiser'} · {formatDateTime(p.createdAt)}
            </p>
            <p className="text-gray-700">“{p.reason}”</p>
            {p.cancelledTickets.length > 0 && (
              <p className="text-gray-700">
                Cancelled: {p.cancelledTickets.map((t) => `${t.quantity} × ${t.name}`).join(', ')}
                {p.cancelledTickets.some((t) => t.seatsReturned < t.quantity) &&
                  ' (seats used at the gate stay off sale)'}
              </p>
            )}
            {p.creditNotes.map((n) => (
              <a
                key={n.id}
                href={`/api/invoices/credit-notes/${n.id}.pdf`}
                className="mr-3 text-brand-700 underline"
              >
                Credit note {n.number} ({formatPaiseExact(n.totalPaise)})
              </a>
            ))}
          </li>
        ))}
      </ul>
      <p className="text-gray-700">Still refundable: {formatPaiseExact(refundableLeft.totalPaise)}</p>
    </div>
  );
}

/**
 * "Refund part": an amount in rupees or everything but the fee, the reason the buyer reads, and tickets
 * to cancel. The server checks it all again (never more than is left; seats used at the gate stay sold).
 */
export function RefundPartForm({ booking }: { booking: Booking }) {
  const utils = trpc.useUtils();
  const input = { eventId: booking.eventId, bookingId: booking.id };
  const refund = trpc.eventBookings.refundPart.useMutation({
    onSuccess: () => {
      setAmount('');
      setReason('');
      setCancel({});
    },
    onSettled: () => refreshAfterRefund(utils, input),
  });
  const [allButFee, setAllButFee] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [cancel, setCancel] = useState<Record<string, number>>({});
  const left = booking.partRefunds.refundableLeft;
  const refusal = serverRefusalOf(refund.error, {
    fields: ['amountPaise', 'reason'],
    fallback: PART_REFUND_MESSAGES.amountRequired,
  });
  const errors = refusal.fields;
  const rupees = Number(amount);

  return (
    <section
      aria-labelledby="refund-part-heading"
      className="space-y-3 rounded-xl border border-gray-200 bg-white p-4"
    >
      <h2 id="refund-part-heading" className="text-lg font-bold">
        Refund part
      </h2>
      <p className="text-sm text-gray-600">
        Up to {formatPaiseExact(left.totalPaise)} is still refundable, of which{' '}
        {formatPaiseExact(left.feePaise)} is the convenience fee and its GST. A credit note is issued for the
        amount and the buyer is told what and why by e-mail.
      </p>
      <form
        className="space-y-3 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          refund.mutate({
            ...input,
            allButFee,
            ...(allButFee || amount === '' ? {} : { amountPaise: rupeesToPaise(rupees) }),
            reason,
            cancelTickets: Object.entries(cancel)
              .filter(([, quantity]) => quantity > 0)
              .map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity })),
          });
        }}
      >
        <fieldset className="space-y-1">
          <legend className="font-medium text-gray-900">Amount</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="refund-amount"
              checked={!allButFee}
              onChange={() => setAllButFee(false)}
            />
            <span>Amount (₹)</span>
            <input
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              aria-label="Amount to refund in rupees"
              aria-invalid={!!errors.amountPaise}
              disabled={allButFee}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              className="w-32 rounded-md border border-gray-300 px-2 py-1"
            />
          </label>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="refund-amount"
              checked={allButFee}
              onChange={() => setAllButFee(true)}
            />
            <span>Everything but the fee ({formatPaiseExact(left.totalPaise - left.feePaise)})</span>
          </label>
          {errors.amountPaise && <p className="text-red-800">{errors.amountPaise}</p>}
        </fieldset>
        <label className="block">
          <span className="font-medium text-gray-900">Reason (the buyer reads it)</span>
          <textarea
            required
            minLength={3}
            maxLength={500}
            aria-invalid={!!errors.reason}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-1"
            rows={2}
          />
          {errors.reason && <span className="text-red-800">{errors.reason}</span>}
        </label>
        {booking.lines.length > 0 && (
          <fieldset className="space-y-1">
            <legend className="font-medium text-gray-900">Cancel tickets (optional)</legend>
            {booking.lines.map((line) => (
              <label key={line.id} className="flex items-center gap-2">
                <input
                  type="number"
                  min={0}
                  max={line.quantity}
                  aria-label={`${line.name} tickets to cancel`}
                  value={cancel[line.id] ?? 0}
                  onChange={(e) =>
                    setCancel({ ...cancel, [line.id]: Math.max(0, Number(e.target.value) || 0) })
                  }
                  className="w-20 rounded-md border border-gray-300 px-2 py-1"
                />
                <span>
                  of {line.quantity} × {line.name}
                </span>
              </label>
            ))}
            <p className="text-gray-600">
              Seats of cancelled tickets go back on sale, except tickets people were already admitted with.
            </p>
          </fieldset>
        )}
        <FormError message={refusal.form} />
        {refund.isSuccess && (
          <FormNotice>{formatPaiseExact(refund.data.amountPaise)} is being refunded.</FormNotice>
        )}
        <button
          type="submit"
          disabled={refund.isPending}
          className="rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
        >
          {refund.isPending ? 'Refunding...' : 'Refund part'}
        </button>
      </form>
    </section>
  );
}
