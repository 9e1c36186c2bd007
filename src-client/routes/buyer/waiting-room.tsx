import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

/** An event's waiting room on sale day (issue 19): countdown, place in the queue, then the way in. */
export const waitingRoomRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/events/$eventId/waiting-room',
}).lazy(() => import('./waiting-room.lazy.tsx').then((m) => m.Route));
