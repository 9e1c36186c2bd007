import { createRoute } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

export const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
}).lazy(() => import('./forgot-password.lazy.tsx').then((m) => m.Route));
