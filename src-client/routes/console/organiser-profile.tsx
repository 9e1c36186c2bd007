import { createRoute } from '@tanstack/react-router';
import { consoleLayout } from './layout.tsx';

/** The organiser's tax profile: the supplier on their GST invoices, the default rate, and the CSV. */
export const organiserProfileRoute = createRoute({
  getParentRoute: () => consoleLayout,
  staticData: { organiserOnly: true },
  path: '/organiser/profile',
}).lazy(() => import('./organiser-profile.lazy.tsx').then((m) => m.Route));
