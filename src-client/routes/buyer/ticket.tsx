import { createRoute } from '@tanstack/react-router';
import { LoadFailed } from '../../components/status-screens.tsx';
import { messageOf, requireSignedIn } from '../../lib/auth.ts';
import { buyerLayout } from './layout.tsx';

/** `t`: the ticket's signed token, in the mailed link of a box-office buyer without an account (ADR 0042). */
export interface TicketSearch {
  t?: string;
}

export const ticketRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/ticket/$bookingId',
  validateSearch: (search: Record<string, unknown>): TicketSearch =>
    typeof search.t === 'string' && search.t !== '' ? { t: search.t } : {},
  // The token is the ticket itself: with it, the page needs no account (the server checks it). So this
  // page decides for itself, by its search, and is not under the account layout (account-layout.tsx),
  // which asks every page under it for an account.
  beforeLoad: (options) => (options.search.t ? undefined : requireSignedIn(options)),
  loaderDeps: ({ search }) => ({ token: search.t }),
  loader: ({ context, params, deps }) => {
    void context.trpcUtils.bookings.byId.prefetch({ bookingId: params.bookingId, token: deps.token });
  },
  pendingComponent: () => <TicketLoading bookingId={ticketRoute.useParams().bookingId.trim()} />,
  errorComponent: ({ error }) => <LoadFailed title="Ticket" message={ticketFailed(error)} />,
}).lazy(() => import('./ticket.lazy.tsx').then((m) => m.Route));

/** '/ticket' with no booking id: the ticket page's 'No bookingId provided in URL.' */
export const ticketWithoutIdRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/ticket',
}).lazy(() => import('./ticket.lazy.tsx').then((m) => m.WithoutIdRoute));

/** Spec §8 'Failed to load ticket: {message}', with words a buyer understands when no server answered. */
export function ticketFailed(error: unknown): string {
  return `Failed to load ticket: ${messageOf(error, 'please check your connection and try again.')}`;
}

/** Spec §5 Ticket page: 'Loading ticket...' with the booking ID, while the route and while the ticket load. */
export function TicketLoading({ bookingId }: { bookingId: string }) {
  return (
    <div role="status" className="px-4 py-16 text-center text-gray-600">
      <p>Loading ticket...</p>
      <p className="mt-1 text-sm">Booking ID: {bookingId}</p>
    </div>
  );
}
