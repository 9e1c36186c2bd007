import { createRoute } from '@tanstack/react-router';
import { parseCheckoutSearch } from '../../components/checkout/checkout-search.ts';
import { requireSignedIn } from '../../lib/auth.ts';
import { buyerLayout } from './layout.tsx';

export const checkoutRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/checkout-tickets',
  validateSearch: parseCheckoutSearch,
  // Spec §6: paying needs a signed-in user; a signed-out visitor signs in and comes back here.
  beforeLoad: requireSignedIn,
}).lazy(() => import('./checkout.lazy.tsx').then((m) => m.Route));
