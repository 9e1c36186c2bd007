import { createRoute } from '@tanstack/react-router';
import { eventLayout } from './event-layout.tsx';

/**
 * One booking of an event: the buyer, what was paid, refund and check-ins; resend or cancel it. Under the
 * event's layout, in its Orders tab (where a booking is opened from): the server lets the same people see
 * it as the Orders page (`manageBookings`: the team, not gate staff or the box office), so the layout's
 * check is this page's too.
 */
export const organiserBookingRoute = createRoute({
  getParentRoute: () => eventLayout,
  path: '/organiser/events/$eventId/bookings/$bookingId',
  staticData: { eventSection: 'orders' },
}).lazy(() => import('./organiser-booking.lazy.tsx').then((m) => m.Route));
