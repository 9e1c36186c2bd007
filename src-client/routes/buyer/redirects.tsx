import { createRoute, redirect } from '@tanstack/react-router';
import { buyerLayout } from './layout.tsx';

/** The home-page notes call the sign-up screen /signup; the canonical route is /SignUp. */
export const signUpAliasRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/signup',
  beforeLoad: () => {
    throw redirect({ to: '/SignUp', replace: true });
  },
});

/** Shared links use /event/{id} (spec §2); the screen lives at /events/{id}. */
export const sharedEventLinkRoute = createRoute({
  getParentRoute: () => buyerLayout,
  path: '/event/$eventId',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/events/$eventId', params: { eventId: params.eventId }, replace: true });
  },
});
