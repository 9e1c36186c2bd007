import { createRoute, Outlet } from '@tanstack/react-router';
import { StorefrontChrome } from '../../components/storefront-chrome.tsx';
import { rootRoute } from '../__root.tsx';

/**
 * The buyer's pages (and a team invitation, which someone without an account opens): the storefront's
 * header, search and footer, drawn once here. Pathless: the pages keep their own URLs.
 */
export const buyerLayout = createRoute({
  getParentRoute: () => rootRoute,
  id: '_buyer',
  component: () => (
    <StorefrontChrome>
      <Outlet />
    </StorefrontChrome>
  ),
});
