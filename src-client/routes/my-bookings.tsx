import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../lib/auth.ts';
import { rootRoute } from './__root.tsx';

export const myBookingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/my-bookings',
  beforeLoad: requireSignedIn,
  // Start the request with the route's code; the page shows its own loading, error and empty states.
  loader: ({ context }) => {
    void context.trpcUtils.bookings.mine.prefetch();
  },
}).lazy(() => import('./my-bookings.lazy.tsx').then((m) => m.Route));
