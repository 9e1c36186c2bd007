import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

export const forgotPasswordRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/forgot-password',
}).lazy(() => import('./forgot-password.lazy.tsx').then((m) => m.Route));
