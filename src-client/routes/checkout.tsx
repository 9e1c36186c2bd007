import { createRoute } from '@tanstack/react-router';
import { checkoutSearchSchema } from '../components/checkout/checkout-search.ts';
import { requireSignedIn } from '../lib/auth.ts';
import { rootRoute } from './__root.tsx';

export const checkoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/checkout-tickets',
  validateSearch: checkoutSearchSchema,
  // Spec §6: paying needs a signed-in user; a signed-out visitor signs in and comes back here.
  beforeLoad: requireSignedIn,
}).lazy(() => import('./checkout.lazy.tsx').then((m) => m.Route));
