import { useRef, useState } from 'react';
import { formatPaiseExact } from '../../shared/money.ts';
import { messageOf } from '../lib/auth.ts';
import { trpc } from '../lib/trpc.ts';
import { CancelSomeTickets } from './cancel-some-tickets.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * On an upcoming booking (My Bookings, the ticket page): the event's refund policy and either "Cancel booking" (with a confirmation
 * that states the refund) or why it cannot be cancelled. The server decides both (bookings.cancellationQuote).
 */
export function CancelBookingSection({
  bookingId,
  eventName,
  lines = [],
}: {
  bookingId: string;
  eventName: string;
  /** The booking's tickets: with more than one, "Cancel some tickets" is offered too (issue 36 item 12). */
  lines?: { id: string; name: string; quantity: number }[];
}) {
  const quote = trpc.bookings.cancellationQuote.useQuery({ bookingId });
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const cancel = trpc.bookings.cancel.useMutation({
    onSuccess: async () => {
      setOpen(false);
      await Promise.all([
        utils.bookings.mine.invalidate(),
        utils.bookings.byId.invalidate({ bookingId }),
        utils.bookings.cancellationQuote.invalidate(),
      ]);
    },
  });
  if (!quote.data) return null;
  const q = quote.data;
  return (
    <div className="mt-3 border-t border-gray-100 pt-3 text-sm">
      <p className="text-gray-700">{q.policyText}</p>
      {q.cancellable ? (
        <>
          <button
            ref={cancelButton}
            type="button"
            onClick={() => {
              cancel.reset();
              setOpen(true);
            }}
            className="mt-2 rounded-md border border-red-300 px-4 py-2 font-semibold text-red-800 hover:bg-red-50"
          >
            Cancel booking
          </button>
          <CancelSomeTickets
            bookingId={bookingId}
            eventName={eventName}
            lines={lines}
            returnFocus={() => cancelButton.current}
          />
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            title="Cancel this booking?"
            description={eventName}
            confirmLabel="Yes, cancel booking"
            cancelLabel="Keep booking"
            busyLabel="Cancelling..."
            busy={cancel.isPending}
            error={cancel.error ? messageOf(cancel.error) : null}
            onConfirm={() => cancel.mutate({ bookingId })}
          >
            <p className="mt-4 text-gray-900">
              You will get a refund of{' '}
              <strong data-testid="refund-amount">{formatPaiseExact(q.refundAmountPaise)}</strong> to your
              original payment method. Your ticket will stop working and the seats go back on sale.
            </p>
            <p className="mt-2 text-sm text-gray-700">This cannot be undone.</p>
          </ConfirmDialog>
        </>
      ) : (
        <p className="mt-1 font-medium text-gray-900">{q.reason}</p>
      )}
    </div>
  );
}
