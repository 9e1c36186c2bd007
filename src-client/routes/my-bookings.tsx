import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const myBookingsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/my-bookings' }).lazy(
  () => import('./my-bookings.lazy.tsx').then((m) => m.Route),
);
