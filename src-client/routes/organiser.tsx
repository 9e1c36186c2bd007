import { createRoute } from '@tanstack/react-router';
import { requireConsole } from '../lib/console-access.ts';
import { rootRoute } from './__root.tsx';

/** The organiser console's home (issue 14). Its code loads only when someone opens it. */
export const organiserRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser',
  beforeLoad: requireConsole,
}).lazy(() => import('./organiser.lazy.tsx').then((m) => m.Route));
