import { createRoute } from '@tanstack/react-router';
import { requireSignedIn } from '../../lib/auth.ts';
import { buyerLayout } from './layout.tsx';

/** "List your Event": a signed-in person asks to become an organiser. */
export const listYourEventRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/list-your-event',
  beforeLoad: requireSignedIn,
}).lazy(() => import('./list-your-event.lazy.tsx').then((m) => m.Route));
