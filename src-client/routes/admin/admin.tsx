import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** The admin page: organiser requests and organiser rights. Non-admins see 'not allowed'. */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/admin',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./admin.lazy.tsx').then((m) => m.Route));
