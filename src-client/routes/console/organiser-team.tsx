import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** One event's team: who is on it, invitations waiting, invite and remove. */
export const organiserTeamRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/events/$eventId/team',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-team.lazy.tsx').then((m) => m.Route));
