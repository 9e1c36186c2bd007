import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../lib/auth.ts';
import { rootRoute } from './__root.tsx';

/** The gate scanner (docs/decisions/0022): the event's gate staff, co-organisers, owner; admins. */
export const gateRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/gate',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./gate.lazy.tsx').then((m) => m.Route));
