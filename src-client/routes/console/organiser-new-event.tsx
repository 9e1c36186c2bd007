import { createRoute } from '@tanstack/react-router';
import { consoleLayout } from './layout.tsx';

/** "Create event": the details of a new draft; the editor opens once it is saved. */
export const organiserNewEventRoute = createRoute({
  getParentRoute: () => consoleLayout,
  staticData: { organiserOnly: true },
  path: '/organiser/events/new',
}).lazy(() => import('./organiser-new-event.lazy.tsx').then((m) => m.Route));
