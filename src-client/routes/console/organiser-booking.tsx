import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** One booking of an event: the buyer, what was paid, refund and check-ins; resend or cancel it. */
export const organiserBookingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/events/$eventId/bookings/$bookingId',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-booking.lazy.tsx').then((m) => m.Route));
