import { createRoute } from '@tanstack/react-router';
import { parseCheckoutSearch } from '../../components/checkout/checkout-search.ts';
import { accountLayout } from './account-layout.tsx';

export const checkoutRoute = createRoute({
  getParentRoute: () => accountLayout,
  path: '/checkout-tickets',
  validateSearch: parseCheckoutSearch,
  // Spec §6: paying needs a signed-in user; the account layout sends a signed-out visitor to sign in.
}).lazy(() => import('./checkout.lazy.tsx').then((m) => m.Route));
