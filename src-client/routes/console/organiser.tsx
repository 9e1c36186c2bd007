import { createRoute } from '@tanstack/react-router';
import { consoleLayout } from './layout.tsx';

/** The organiser console's home (issue 14). Its code loads only when someone opens it. */
export const organiserRoute = createRoute({
  getParentRoute: () => consoleLayout,
  path: '/organiser',
}).lazy(() => import('./organiser.lazy.tsx').then((m) => m.Route));
