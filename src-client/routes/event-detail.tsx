import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const eventDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/events/$eventId',
}).lazy(() => import('./event-detail.lazy.tsx').then((m) => m.Route));
