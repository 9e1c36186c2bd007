import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** The event editor: details, dates → slots → ticket types, publish. */
export const organiserEventEditorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/events/$eventId/edit',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-event-editor.lazy.tsx').then((m) => m.Route));
