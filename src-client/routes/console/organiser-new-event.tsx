import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** "Create event": the details of a new draft; the editor opens once it is saved. */
export const organiserNewEventRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/events/new',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-new-event.lazy.tsx').then((m) => m.Route));
