import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const eventDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/events/$eventId',
  // Prefetch while the chunk loads; the screen itself shows 'Event not found' or 'Failed to load event'.
  loader: ({ context, params }) =>
    context.trpcUtils.events.byId.ensureData({ id: params.eventId }).catch(() => undefined),
}).lazy(() => import('./event-detail.lazy.tsx').then((m) => m.Route));
