import { createRoute } from '@tanstack/react-router';
import { eventLayout } from './event-layout.tsx';

/** One event's box office (issue 40): complimentary bookings, sales at the door, the order look-up. */
export const organiserBoxOfficeRoute = createRoute({
  getParentRoute: () => eventLayout,
  staticData: { eventSection: 'box-office' },
  path: '/organiser/events/$eventId/box-office',
}).lazy(() => import('./organiser-box-office.lazy.tsx').then((m) => m.Route));
