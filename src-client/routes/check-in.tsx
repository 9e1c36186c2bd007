import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../lib/auth.ts';
import { rootRoute } from './__root.tsx';

/** Gate staff check tickets in here (staff are set with `npm run user:staff`). */
export const checkInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/check-in',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./check-in.lazy.tsx').then((m) => m.Route));
