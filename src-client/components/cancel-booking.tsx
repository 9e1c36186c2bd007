import { useRef, useState } from 'react';
import { formatPaiseExact } from '../../shared/money.ts';
import { messageOf } from '../lib/auth.ts';
import { trpc } from '../lib/trpc.ts';
import { CancelSomeTickets } from './cancel-some-tickets.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

/**
 * On an upcoming booking (My Bookings, the ticket page): the event's refund policy and either "Cancel booking" (with a confirmation
 * that states the refund) or why it cannot be cancelled. The server decides both (bookings.cancellationQuote).
 * Once cancelled, the page's `notice` says so and takes focus: this section goes when the booking is read again.
 */
export function CancelBookingSection({
  bookingId,
  eventName,
  lines = [],
  notice,
}: {
  bookingId: string;
  eventName: string;
  /** The booking's tickets: with more than one, "Cancel some tickets" is offered too (issue 36 item 12). */
  lines?: { id: string; name: string; quantity: number }[];
  /** The page's word on a cancellation (useCancelNotice, shown by CancelNoticeRegion). */
  notice: CancelNotice;
}) {
  const quote = trpc.bookings.cancellationQuote.useQuery({ bookingId });
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  // Read by the dialog once it has closed (a ref, not state: the dialog keeps the handler of its last open render).
  const cancelledHere = useRef(false);
  const cancel = trpc.bookings.cancel.useMutation({
    onSuccess: async (result) => {
      cancelledHere.current = true;
      // The server's answer, decided from the same quote inside its transaction: what was refunded.
      notice.announce({ bookingId, ...result });
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
              cancelledHere.current = false;
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
            // Not back to "Cancel booking": it goes with the card when the booking is read again, and focus
            // would fall to the start of the page. The page's message stays and says what was done.
            focusOnClose={() => (cancelledHere.current ? notice.message.current : null)}
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

/** A whole cancellation as the server answered it (bookings.cancel). */
export type CancelOutcome = { bookingId: string; cancelled: boolean; refundAmountPaise: number };

/**
 * The page's side of "Cancel booking" (issue 39): the outcome is kept by the page, not by the booking's card,
 * because the card's cancel section goes (My Bookings) or the whole ticket gives way to a message (the ticket
 * page) as soon as the booking is read again. Give it to each CancelBookingSection and to one CancelNoticeRegion.
 */
export function useCancelNotice() {
  const [outcome, setOutcome] = useState<CancelOutcome | null>(null);
  const message = useRef<HTMLParagraphElement>(null);
  return { outcome, announce: setOutcome, message };
}

export type CancelNotice = ReturnType<typeof useCancelNotice>;

/**
 * Where a page says that a booking was cancelled and what is refunded: a polite live region, on the page
 * from the start so the message is announced when it arrives, and the message itself takes focus
 * (tabIndex -1) when the dialog closes, so a keyboard or screen-reader user goes on from there, not from
 * the top of the page. Placed outside any booking's card, so it stays while the cards change.
 */
export function CancelNoticeRegion({ notice, className }: { notice: CancelNotice; className?: string }) {
  return (
    <div role="status" className={notice.outcome ? className : undefined}>
      {notice.outcome && (
        <p
          ref={notice.message}
          tabIndex={-1}
          className="rounded-md border border-green-300 bg-green-50 px-4 py-3 font-medium text-green-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-green-700"
        >
          {cancelledText(notice.outcome)}
        </p>
      )}
    </div>
  );
}

function cancelledText({ bookingId, cancelled, refundAmountPaise }: CancelOutcome): string {
  // Cancelled meanwhile (another tab or device): the server refunded it once, then.
  if (!cancelled) return `Booking ${bookingId} was already cancelled.`;
  if (refundAmountPaise === 0)
    return `Booking ${bookingId} cancelled. The event’s refund policy gives no refund for it.`;
  return `Booking ${bookingId} cancelled. A refund of ${formatPaiseExact(refundAmountPaise)} is on its way to your original payment method.`;
}
