import { createRoute } from '@tanstack/react-router';
import { rootRoute } from './__root.tsx';

export const checkoutRoute = createRoute({ getParentRoute: () => rootRoute, path: '/checkout-tickets' }).lazy(
  () => import('./checkout.lazy.tsx').then((m) => m.Route),
);
