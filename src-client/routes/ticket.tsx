import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../lib/auth.ts';
import { rootRoute } from './__root.tsx';

export const ticketRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/ticket/$bookingId',
  beforeLoad: requireSignedIn,
  loader: ({ context, params }) => {
    void context.trpcUtils.bookings.byId.prefetch({ bookingId: params.bookingId });
  },
}).lazy(() => import('./ticket.lazy.tsx').then((m) => m.Route));

/** '/ticket' with no booking id: the ticket page's 'No bookingId provided in URL.' */
export const ticketWithoutIdRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/ticket',
}).lazy(() => import('./ticket.lazy.tsx').then((m) => m.WithoutIdRoute));
