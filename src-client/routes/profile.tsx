import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../lib/auth.ts';
import { rootRoute } from './__root.tsx';

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/profile',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./profile.lazy.tsx').then((m) => m.Route));
