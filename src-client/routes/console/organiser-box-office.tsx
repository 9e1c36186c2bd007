import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** One event's box office (issue 40): complimentary bookings, sales at the door, the order look-up. */
export const organiserBoxOfficeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/events/$eventId/box-office',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-box-office.lazy.tsx').then((m) => m.Route));
