import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { buyerLayout } from './layout.tsx';

export const protectedRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/protected',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./protected.lazy.tsx').then((m) => m.Route));
