import {
  createRoute,
  type ErrorComponentProps,
  type ErrorRouteComponent,
  type RouteComponent,
  useMatches,
  useRouter,
} from '@tanstack/react-router';
import { ErrorScreen } from '../../components/status-screens.tsx';
import { requireSignedIn } from '../../lib/auth.ts';
import { buyerLayout } from './layout.tsx';

/**
 * The buyer's pages that need an account (checkout, My Bookings, My Profile, List your Event, a
 * waiting-list offer, /protected): signed in, decided once here (docs/decisions/0048-client-layout.md).
 * A signed-out visitor goes to /login?redirect=<the page> and comes back. Pathless and drawing nothing
 * of its own (the storefront is `_buyer`'s): the pages keep their URLs. The ticket page is not under it:
 * with the token from a box-office mail it needs no account (routes/buyer/ticket.tsx).
 */
export const accountLayout = createRoute({
  getParentRoute: () => buyerLayout,
  id: '_account',
  beforeLoad: requireSignedIn,
  // While the sign-in check waits, and if it fails, the page opened says so in its own words (My
  // Bookings' 'Loading your bookings...', My Profile's 'Failed to load user data'), as it did when each
  // page ran the check itself: the layout's match is the one waiting, so its boundary shows them.
  pendingComponent: PagePending,
  errorComponent: PageError,
});

/** The options of the page (the deepest route) being opened under this layout. */
function usePageOptions() {
  const router = useRouter();
  const routeId = useMatches({ select: (matches) => matches.at(-1)?.routeId });
  const route = routeId ? router.routesById[routeId as keyof typeof router.routesById] : undefined;
  return route?.id === accountLayout.id ? undefined : route?.options;
}

function PagePending() {
  const Pending = usePageOptions()?.pendingComponent as RouteComponent | undefined;
  return Pending ? <Pending /> : null;
}

function PageError(props: ErrorComponentProps) {
  const Failed = (usePageOptions()?.errorComponent as ErrorRouteComponent | undefined) ?? null;
  return Failed ? <Failed {...props} /> : <ErrorScreen error={props.error} />;
}
