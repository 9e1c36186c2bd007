import { createRoute } from '@tanstack/react-router';
import { consoleLayout } from './layout.tsx';

/** The buyer's event page as it will look, drafts included, for the event's team. */
export const organiserEventPreviewRoute = createRoute({
  getParentRoute: () => consoleLayout,
  path: '/organiser/events/$eventId/preview',
}).lazy(() => import('./organiser-event-preview.lazy.tsx').then((m) => m.Route));
