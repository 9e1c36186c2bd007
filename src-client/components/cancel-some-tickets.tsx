import { useState } from 'react';
import { formatPaiseExact } from '../../shared/money.ts';
import { messageOf } from '../lib/auth.ts';
import { trpc } from '../lib/trpc.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * "Cancel some tickets" of one's own booking where the event's refund policy allows cancelling it (issue 36
 * item 12): choose how many of each ticket; the server works out the policy's refund for them, cancels
 * them, and issues a credit note. At least one ticket stays (cancelling all is "Cancel booking"), so it is
 * offered only on a booking of more than one ticket.
 */
export function CancelSomeTickets({
  bookingId,
  eventName,
  lines,
  returnFocus,
}: {
  bookingId: string;
  eventName: string;
  lines: { id: string; name: string; quantity: number }[];
  /** Where focus goes on closing once this button has gone (one ticket left). */
  returnFocus?: () => HTMLElement | null;
}) {
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<Record<string, number>>({});
  const cancel = trpc.bookings.cancelSomeTickets.useMutation({
    onSuccess: async () => {
      setChosen({});
      await Promise.all([
        utils.bookings.mine.invalidate(),
        utils.bookings.byId.invalidate({ bookingId }),
        utils.bookings.cancellationQuote.invalidate(),
        // The part refund's credit note joins the booking's invoice links.
        utils.invoices.forBooking.invalidate({ bookingId }),
      ]);
    },
  });
  const tickets = Object.entries(chosen)
    .filter(([, quantity]) => quantity > 0)
    .map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity }));
  // Offered while the booking has more than one ticket. The dialog stays mounted after the last but one is
  // cancelled, so it can still say what was refunded once the booking has been read again.
  const offered = lines.reduce((n, l) => n + l.quantity, 0) > 1;
  return (
    <>
      {offered && (
        <button
          type="button"
          onClick={() => {
            cancel.reset();
            setOpen(true);
          }}
          className="mt-2 ml-2 rounded-md border border-red-300 px-4 py-2 font-semibold text-red-800 hover:bg-red-50"
        >
          Cancel some tickets
        </button>
      )}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Cancel some tickets?"
        description={eventName}
        confirmLabel="Cancel these tickets"
        cancelLabel="Keep them"
        busyLabel="Cancelling..."
        busy={cancel.isPending}
        confirmDisabled={tickets.length === 0}
        error={cancel.error ? messageOf(cancel.error) : null}
        done={
          cancel.isSuccess && (
            <p>
              Done. A refund of <strong>{formatPaiseExact(cancel.data.refundAmountPaise)}</strong> is on its
              way to your original payment method; the rest of your booking stays valid.
            </p>
          )
        }
        returnFocus={returnFocus}
        onConfirm={() => cancel.mutate({ bookingId, tickets })}
      >
        <p className="mt-4 text-gray-900">
          Choose the tickets to cancel. You get the event’s refund policy’s share of what you paid for them,
          and their seats go back on sale. Your other tickets stay valid.
        </p>
        <div className="mt-3 space-y-2">
          {lines.map((line) => (
            <label key={line.id} className="flex items-center gap-2 text-sm">
              <input
                type="number"
                min={0}
                max={line.quantity}
                aria-label={`${line.name} tickets to cancel`}
                value={chosen[line.id] ?? 0}
                onChange={(e) =>
                  setChosen({ ...chosen, [line.id]: Math.max(0, Number(e.target.value) || 0) })
                }
                className="w-20 rounded-md border border-gray-300 px-2 py-1"
              />
              <span>
                of {line.quantity} × {line.name}
              </span>
            </label>
          ))}
        </div>
      </ConfirmDialog>
    </>
  );
}
