import { createRoute, redirect } from '@tanstack/react-router';
import { rootRoute } from '../__root.tsx';

/** The first release's check-in page is the gate now. */
export const checkInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/check-in',
  beforeLoad: () => {
    throw redirect({ to: '/gate', replace: true });
  },
});
