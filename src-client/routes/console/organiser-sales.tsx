import { createRoute } from '@tanstack/react-router';
import { eventLayout } from './event-layout.tsx';

/** One event's sales dashboard: money, sold / held / capacity, check-ins, sales over time. */
export const organiserSalesRoute = createRoute({
  getParentRoute: () => eventLayout,
  staticData: { eventSection: 'sales' },
  path: '/organiser/events/$eventId/sales',
}).lazy(() => import('./organiser-sales.lazy.tsx').then((m) => m.Route));
