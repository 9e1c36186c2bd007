import { createRoute } from '@tanstack/react-router';
import { definedOnly, optionalString } from '../../lib/search-params.ts';
import { eventLayout } from './event-layout.tsx';

/** Search parameters of the orders table; the server validates them again (shared/sales-schemas.ts). */
export interface OrdersSearch {
  q?: string;
  slotId?: string;
  status?: string;
  sort?: string;
}

/** One event's orders and attendees: search, filter, pages, CSV download. */
export const organiserOrdersRoute = createRoute({
  getParentRoute: () => eventLayout,
  staticData: { eventSection: 'orders' },
  path: '/organiser/events/$eventId/orders',
  validateSearch: (search: Record<string, unknown>): OrdersSearch =>
    definedOnly({
      q: optionalString(search.q),
      slotId: optionalString(search.slotId),
      status: optionalString(search.status),
      sort: optionalString(search.sort),
    }),
}).lazy(() => import('./organiser-orders.lazy.tsx').then((m) => m.Route));
