import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

/** The link in a ticket transfer mail; works signed out (it offers to sign in or sign up first). */
export const transferRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/transfers/$token',
}).lazy(() => import('./transfer.lazy.tsx').then((m) => m.Route));
