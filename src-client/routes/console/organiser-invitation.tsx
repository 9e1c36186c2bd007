import { createRoute } from '@tanstack/react-router';
import { buyerLayout } from '../buyer/layout.tsx';

/** The link in a team invitation mail; works signed out (it offers to sign in or sign up first). */
export const organiserInvitationRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/organiser/invitations/$token',
}).lazy(() => import('./organiser-invitation.lazy.tsx').then((m) => m.Route));
