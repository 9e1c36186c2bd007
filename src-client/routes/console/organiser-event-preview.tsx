import { createRoute } from '@tanstack/react-router';
import { consoleLayout } from './layout.tsx';

/**
 * The buyer's event page as it will look, drafts included, for the event's team. Not under the event's
 * layout: the server shows it to the whole team (`view`), gate staff and the box office included, whom
 * that layout turns away, and it is the buyer's page, not a tab. So the page itself shows the server's
 * refusal (organiser-event-preview.lazy.tsx; docs/decisions/0048-client-layout.md).
 */
export const organiserEventPreviewRoute = createRoute({
  getParentRoute: () => consoleLayout,
  path: '/organiser/events/$eventId/preview',
}).lazy(() => import('./organiser-event-preview.lazy.tsx').then((m) => m.Route));
