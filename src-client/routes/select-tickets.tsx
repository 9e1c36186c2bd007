import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const selectTicketsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/select-tickets/$eventId',
  // Prefetch on hover and navigation; the page reads the same query and shows its own loading and errors.
  loader: ({ context, params }) => {
    void context.trpcUtils.tickets.options.prefetch({ eventId: params.eventId });
  },
}).lazy(() => import('./select-tickets.lazy.tsx').then((m) => m.Route));
