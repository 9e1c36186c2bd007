import { createRoute } from '@tanstack/react-router';
import { accountLayout } from './account-layout.tsx';

export const protectedRoute = createRoute({
  getParentRoute: () => accountLayout,
  path: '/protected',
}).lazy(() => import('./protected.lazy.tsx').then((m) => m.Route));
