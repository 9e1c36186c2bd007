import { createRoute } from '@tanstack/react-router';
import { eventLayout } from './event-layout.tsx';

/** The event editor: details, dates → slots → ticket types, publish. */
export const organiserEventEditorRoute = createRoute({
  getParentRoute: () => eventLayout,
  staticData: { eventSection: 'edit' },
  path: '/organiser/events/$eventId/edit',
}).lazy(() => import('./organiser-event-editor.lazy.tsx').then((m) => m.Route));
