import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

export const tempCheckoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/temp-checkout',
}).lazy(() => import('./temp-checkout.lazy.tsx').then((m) => m.Route));
