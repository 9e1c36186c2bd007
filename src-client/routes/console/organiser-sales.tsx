import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** One event's sales dashboard: money, sold / held / capacity, check-ins, sales over time. */
export const organiserSalesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/events/$eventId/sales',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-sales.lazy.tsx').then((m) => m.Route));
