import { createRoute, redirect } from '@tanstack/react-router';
import { gateLayout } from './layout.tsx';

/** The first release's check-in page is the gate now. */
export const checkInRoute = createRoute({
  getParentRoute: () => gateLayout,
  path: '/check-in',
  beforeLoad: () => {
    throw redirect({ to: '/gate', replace: true });
  },
});
