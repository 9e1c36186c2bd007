import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

/** The link in a ticket transfer mail; works signed out (it offers to sign in or sign up first). */
export const transferRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/transfers/$token',
}).lazy(() => import('./transfer.lazy.tsx').then((m) => m.Route));
