import { createRoute } from '@tanstack/react-router';
import { consoleLayout } from './layout.tsx';

/** One booking of an event: the buyer, what was paid, refund and check-ins; resend or cancel it. */
export const organiserBookingRoute = createRoute({
  getParentRoute: () => consoleLayout,
  path: '/organiser/events/$eventId/bookings/$bookingId',
}).lazy(() => import('./organiser-booking.lazy.tsx').then((m) => m.Route));
