import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** The buyer's event page as it will look, drafts included, for the event's team. */
export const organiserEventPreviewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/events/$eventId/preview',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-event-preview.lazy.tsx').then((m) => m.Route));
