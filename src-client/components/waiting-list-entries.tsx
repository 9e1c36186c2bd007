import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { formatBookingDate, formatInIndia, formatTime } from '../../shared/dates.ts';
import { messageOf } from '../lib/auth.ts';
import { trpc } from '../lib/trpc.ts';

/**
 * My Bookings' "Waiting list" (issue 19): each live entry with its place in line, or its offer with the
 * time to pay by and the link; Leave ends it (an offer's seats pass to the next in line).
 */
export function WaitingListEntries() {
  const headingId = useId();
  const entries = trpc.waitlist.mine.useQuery();
  const utils = trpc.useUtils();
  const leave = trpc.waitlist.leave.useMutation({ onSettled: () => utils.waitlist.mine.invalidate() });
  if (!entries.data?.length) return null;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-bold text-gray-900">
        Waiting list <span className="text-base font-normal text-gray-600">({entries.data.length})</span>
      </h2>
      {leave.error && (
        <p className="mt-2 text-sm text-red-700" role="alert">
          {messageOf(leave.error)}
        </p>
      )}
      <ul className="mt-4 space-y-3">
        {entries.data.map((e) => (
          <li
            key={e.entryId}
            data-testid="waitlist-entry"
            className="flex flex-col gap-3 rounded-xl border border-gray-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <h3 className="font-bold">
                <Link to="/events/$eventId" params={{ eventId: e.eventId }} className="hover:text-brand-700">
                  {e.eventName}
                </Link>
              </h3>
              <p className="text-sm text-gray-600">
                {formatBookingDate(e.slotStart)} · {formatTime(e.slotStart)}
              </p>
              <p className="text-sm text-gray-800">
                {e.ticketTypeName} × {e.quantity}
              </p>
              {e.status === 'offered' && e.offerExpiresAt ? (
                <p className="mt-1 font-semibold text-green-800">
                  Offer: pay by {formatInIndia(e.offerExpiresAt, 'h:mm a')}{' '}
                  <Link
                    to="/waitlist/offers/$entryId"
                    params={{ entryId: e.entryId }}
                    className="text-brand-700 underline"
                  >
                    Pay now
                  </Link>
                </p>
              ) : (
                <p className="mt-1 font-semibold text-gray-900">Place in line: #{e.place}</p>
              )}
            </div>
            <button
              type="button"
              disabled={leave.isPending}
              onClick={() => leave.mutate({ entryId: e.entryId })}
              className="self-start rounded-md border border-gray-300 px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-70 sm:self-center"
            >
              Leave
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
