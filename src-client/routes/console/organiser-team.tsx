import { createRoute } from '@tanstack/react-router';
import { eventLayout } from './event-layout.tsx';

/** One event's team: who is on it, invitations waiting, invite and remove. */
export const organiserTeamRoute = createRoute({
  getParentRoute: () => eventLayout,
  staticData: { eventSection: 'team' },
  path: '/organiser/events/$eventId/team',
}).lazy(() => import('./organiser-team.lazy.tsx').then((m) => m.Route));
