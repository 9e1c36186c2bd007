import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const selectTicketsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/select-tickets/$eventId',
}).lazy(() => import('./select-tickets.lazy.tsx').then((m) => m.Route));
