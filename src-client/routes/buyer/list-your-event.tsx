import { createRoute } from '@tanstack/react-router';
import { accountLayout } from './account-layout.tsx';

/** "List your Event": a signed-in person asks to become an organiser. */
export const listYourEventRoute = createRoute({
  getParentRoute: () => accountLayout,
  path: '/list-your-event',
}).lazy(() => import('./list-your-event.lazy.tsx').then((m) => m.Route));
