import { createRoute } from '@tanstack/react-router';
import { LoadFailed, LoadingText } from '../../components/status-screens.tsx';
import { accountLayout } from './account-layout.tsx';

export const myBookingsRoute = createRoute({
  getParentRoute: () => accountLayout,
  path: '/my-bookings',
  // Start the request with the route's code; the page shows its own loading, error and empty states.
  loader: ({ context }) => {
    void context.trpcUtils.bookings.mine.prefetch();
  },
  // While the sign-in check (account-layout.tsx) waits, and if it fails: the page's own texts (spec §5).
  pendingComponent: () => <LoadingText text="Loading your bookings..." />,
  errorComponent: () => <LoadFailed title="My Bookings" message={BOOKINGS_FAILED} />,
}).lazy(() => import('./my-bookings.lazy.tsx').then((m) => m.Route));

export const BOOKINGS_FAILED = 'Failed to fetch bookings and events';
