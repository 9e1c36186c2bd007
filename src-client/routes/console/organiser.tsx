import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** The organiser console's home (issue 14). Its code loads only when someone opens it. */
export const organiserRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser',
  // Signed-out visitors sign in first; who may see the console is decided in its own chunk.
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser.lazy.tsx').then((m) => m.Route));
