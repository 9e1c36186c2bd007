import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

export const tempCheckoutRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/temp-checkout',
}).lazy(() => import('./temp-checkout.lazy.tsx').then((m) => m.Route));
