import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type Router } from '@tanstack/react-router';
import type { EventSection } from './components/console/event-nav.tsx';
import { ErrorScreen } from './components/status-screens.tsx';
import type { TrpcUtils } from './lib/trpc.ts';
import { rootRoute } from './routes/__root.tsx';
import { accountLayout } from './routes/buyer/account-layout.tsx';
import { checkoutRoute } from './routes/buyer/checkout.tsx';
import { contactUsRoute } from './routes/buyer/contact-us.tsx';
import { eventDetailRoute } from './routes/buyer/event-detail.tsx';
import { exploreRoute } from './routes/buyer/explore.tsx';
import { forgotPasswordRoute } from './routes/buyer/forgot-password.tsx';
import { homeRoute } from './routes/buyer/index.tsx';
import { buyerLayout } from './routes/buyer/layout.tsx';
import { listYourEventRoute } from './routes/buyer/list-your-event.tsx';
import { loginRoute } from './routes/buyer/login.tsx';
import { myBookingsRoute } from './routes/buyer/my-bookings.tsx';
import { privacyPolicyRoute } from './routes/buyer/privacy-policy.tsx';
import { profileRoute } from './routes/buyer/profile.tsx';
import { protectedRoute } from './routes/buyer/protected.tsx';
import { sharedEventLinkRoute, signUpAliasRoute } from './routes/buyer/redirects.tsx';
import { resetPasswordRoute } from './routes/buyer/reset-password.tsx';
import { searchRoute } from './routes/buyer/search.tsx';
import { selectTicketsRoute } from './routes/buyer/select-tickets.tsx';
import { signUpRoute } from './routes/buyer/sign-up.tsx';
import { tempCheckoutRoute } from './routes/buyer/temp-checkout.tsx';
import { termsRoute } from './routes/buyer/terms.tsx';
import { ticketRoute, ticketWithoutIdRoute } from './routes/buyer/ticket.tsx';
import { transferRoute } from './routes/buyer/transfer.tsx';
import { verifyEmailRoute } from './routes/buyer/verify-email.tsx';
import { waitingRoomRoute } from './routes/buyer/waiting-room.tsx';
import { waitlistOfferRoute } from './routes/buyer/waitlist-offer.tsx';
import type { STAFF_BUYER_ROUTES, STAFF_LAYOUTS } from './staff-routes.ts';

// Code-based routes (docs/decisions/0002-code-based-routes.md): the spec's paths include a space and an
// ampersand ('/Terms & Conditions'), which file-based route names cannot spell.
const BUYER_ROUTES = [
  // The pages that need an account, behind the one sign-in check of their layout.
  accountLayout.addChildren([
    checkoutRoute,
    profileRoute,
    myBookingsRoute,
    protectedRoute,
    listYourEventRoute,
    waitlistOfferRoute,
  ]),
  homeRoute,
  loginRoute,
  signUpRoute,
  signUpAliasRoute,
  eventDetailRoute,
  waitingRoomRoute,
  sharedEventLinkRoute,
  selectTicketsRoute,
  privacyPolicyRoute,
  termsRoute,
  contactUsRoute,
  ticketRoute,
  ticketWithoutIdRoute,
  tempCheckoutRoute,
  searchRoute,
  exploreRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  verifyEmailRoute,
  transferRoute,
] as const;

/**
 * Every route, for the types (a link to the console is checked like any other); at run time the tree
 * starts with the buyer's layout and routes alone and takes the staff's layouts when one of their paths
 * is opened. Each audience's routes sit under a pathless layout route (docs/decisions/0048).
 */
type AppRouteTree = ReturnType<
  typeof rootRoute.addChildren<
    [
      ReturnType<typeof buyerLayout.addChildren<[...typeof BUYER_ROUTES, ...typeof STAFF_BUYER_ROUTES]>>,
      ...typeof STAFF_LAYOUTS,
    ]
  >
>;
const buyerTree = rootRoute.addChildren([
  buyerLayout.addChildren([...BUYER_ROUTES]),
]) as unknown as AppRouteTree;

/** The staff's routes, added to the (shared) root once: the first time any router needs them. */
let staffRoutes: Promise<void> | undefined;
/** Routers whose matching tree has been rebuilt with the staff's routes. */
const complete = new WeakSet<object>();

/** Adds the console's, admin's and gate's routes to this router (a no-op once done). */
export async function loadAllRoutes(router: ReturnType<typeof createAppRouter>): Promise<void> {
  staffRoutes ??= import('./staff-routes.ts').then(({ STAFF_LAYOUTS, STAFF_BUYER_ROUTES }) => {
    rootRoute.addChildren([
      buyerLayout.addChildren([...BUYER_ROUTES, ...STAFF_BUYER_ROUTES]),
      ...STAFF_LAYOUTS,
    ]);
  });
  await staffRoutes;
  if (complete.has(router)) return;
  router.setRoutes(router.buildRouteTree());
  complete.add(router);
}

export function createAppRouter(context: { queryClient: QueryClient; trpcUtils: TrpcUtils }) {
  // The root's beforeLoad asks this for every location (routes/__root.tsx): a path none of the loaded
  // routes matches loads the rest, and then says whether to match it again.
  const routesFor = async (pathname: string): Promise<boolean> => {
    if (complete.has(router) || router.getMatchedRoutes(pathname)[2]) return false;
    await loadAllRoutes(router);
    return Boolean(router.getMatchedRoutes(pathname)[2]);
  };
  const router: Router<AppRouteTree> = createRouter({
    routeTree: buyerTree,
    context: { ...context, routesFor },
    defaultPreload: 'intent',
    // Loaders prefetch into React Query; let it own freshness.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // A route that fails shows so inside the page's own header and footer (issue 17): without this the
    // failure reached the root's boundary, which replaced the whole layout. No default pending
    // component: it put every route behind a pending boundary that cost the event page about half its
    // blocking time on a phone (docs/benchmarks.md, Lighthouse); routes that wait say so themselves.
    defaultErrorComponent: ErrorScreen,
  });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  /** What a route tells its layout (routes/console/layout.tsx, event-layout.tsx). */
  interface StaticDataRouteOption {
    /** The console page is for organisers (and admins) alone: its layout shows anyone else "Not allowed". */
    organiserOnly?: boolean;
    /** The event's tab this route is: the event's layout marks it in the tab bar and checks who may see it. */
    eventSection?: EventSection;
  }
}
