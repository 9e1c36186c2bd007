import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { ErrorScreen } from './components/status-screens.tsx';
import type { TrpcUtils } from './lib/trpc.ts';
import { rootRoute } from './routes/__root.tsx';
import { adminRoute } from './routes/admin.tsx';
import { checkInRoute } from './routes/check-in.tsx';
import { checkoutRoute } from './routes/checkout.tsx';
import { contactUsRoute } from './routes/contact-us.tsx';
import { eventDetailRoute } from './routes/event-detail.tsx';
import { exploreRoute } from './routes/explore.tsx';
import { forgotPasswordRoute } from './routes/forgot-password.tsx';
import { gateRoute } from './routes/gate.tsx';
import { homeRoute } from './routes/index.tsx';
import { listYourEventRoute } from './routes/list-your-event.tsx';
import { loginRoute } from './routes/login.tsx';
import { myBookingsRoute } from './routes/my-bookings.tsx';
import { organiserRoute } from './routes/organiser.tsx';
import { organiserBookingRoute } from './routes/organiser-booking.tsx';
import { organiserEventEditorRoute } from './routes/organiser-event-editor.tsx';
import { organiserEventPreviewRoute } from './routes/organiser-event-preview.tsx';
import { organiserInvitationRoute } from './routes/organiser-invitation.tsx';
import { organiserNewEventRoute } from './routes/organiser-new-event.tsx';
import { organiserOrdersRoute } from './routes/organiser-orders.tsx';
import { organiserProfileRoute } from './routes/organiser-profile.tsx';
import { organiserSalesRoute } from './routes/organiser-sales.tsx';
import { organiserTeamRoute } from './routes/organiser-team.tsx';
import { privacyPolicyRoute } from './routes/privacy-policy.tsx';
import { profileRoute } from './routes/profile.tsx';
import { protectedRoute } from './routes/protected.tsx';
import { sharedEventLinkRoute, signUpAliasRoute } from './routes/redirects.tsx';
import { resetPasswordRoute } from './routes/reset-password.tsx';
import { searchRoute } from './routes/search.tsx';
import { selectTicketsRoute } from './routes/select-tickets.tsx';
import { signUpRoute } from './routes/sign-up.tsx';
import { tempCheckoutRoute } from './routes/temp-checkout.tsx';
import { termsRoute } from './routes/terms.tsx';
import { ticketRoute, ticketWithoutIdRoute } from './routes/ticket.tsx';
import { transferRoute } from './routes/transfer.tsx';
import { verifyEmailRoute } from './routes/verify-email.tsx';
import { waitingRoomRoute } from './routes/waiting-room.tsx';
import { waitlistOfferRoute } from './routes/waitlist-offer.tsx';

// Code-based routes (docs/decisions/0002-code-based-routes.md): the spec's paths include a space and an
// ampersand ('/Terms & Conditions'), which file-based route names cannot spell.
const routeTree = rootRoute.addChildren([
  homeRoute,
  loginRoute,
  signUpRoute,
  signUpAliasRoute,
  eventDetailRoute,
  waitingRoomRoute,
  sharedEventLinkRoute,
  selectTicketsRoute,
  checkoutRoute,
  privacyPolicyRoute,
  termsRoute,
  contactUsRoute,
  profileRoute,
  myBookingsRoute,
  ticketRoute,
  ticketWithoutIdRoute,
  checkInRoute,
  gateRoute,
  protectedRoute,
  tempCheckoutRoute,
  searchRoute,
  exploreRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  verifyEmailRoute,
  listYourEventRoute,
  organiserRoute,
  organiserTeamRoute,
  organiserProfileRoute,
  organiserEventPreviewRoute,
  organiserBookingRoute,
  organiserNewEventRoute,
  organiserEventEditorRoute,
  organiserInvitationRoute,
  transferRoute,
  waitlistOfferRoute,
  organiserSalesRoute,
  organiserOrdersRoute,
  adminRoute,
]);

export function createAppRouter(context: { queryClient: QueryClient; trpcUtils: TrpcUtils }) {
  return createRouter({
    routeTree,
    context,
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
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
