import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { rootRoute } from '../__root.tsx';

/** The organiser's tax profile: the supplier on their GST invoices, the default rate, and the CSV. */
export const organiserProfileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organiser/profile',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./organiser-profile.lazy.tsx').then((m) => m.Route));
