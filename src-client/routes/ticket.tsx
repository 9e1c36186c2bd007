import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const ticketRoute = createRoute({ getParentRoute: () => rootRoute, path: '/ticket/$bookingId' }).lazy(
  () => import('./ticket.lazy.tsx').then((m) => m.Route),
);
