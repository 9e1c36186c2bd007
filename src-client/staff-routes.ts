import { adminRoute } from './routes/admin/admin.tsx';
import { adminLayout } from './routes/admin/layout.tsx';
import { eventLayout } from './routes/console/event-layout.tsx';
import { consoleLayout } from './routes/console/layout.tsx';
import { organiserRoute } from './routes/console/organiser.tsx';
import { organiserBookingRoute } from './routes/console/organiser-booking.tsx';
import { organiserBoxOfficeRoute } from './routes/console/organiser-box-office.tsx';
import { organiserEventEditorRoute } from './routes/console/organiser-event-editor.tsx';
import { organiserEventPreviewRoute } from './routes/console/organiser-event-preview.tsx';
import { organiserInvitationRoute } from './routes/console/organiser-invitation.tsx';
import { organiserNewEventRoute } from './routes/console/organiser-new-event.tsx';
import { organiserOrdersRoute } from './routes/console/organiser-orders.tsx';
import { organiserPayoutsRoute } from './routes/console/organiser-payouts.tsx';
import { organiserProfileRoute } from './routes/console/organiser-profile.tsx';
import { organiserSalesRoute } from './routes/console/organiser-sales.tsx';
import { organiserTeamRoute } from './routes/console/organiser-team.tsx';
import { checkInRoute } from './routes/gate/check-in.tsx';
import { gateRoute } from './routes/gate/gate.tsx';
import { gateLayout } from './routes/gate/layout.tsx';

/**
 * The organiser console's, the admin's and the gate's routes (issue 39), each under its layout route
 * (docs/decisions/0048-client-layout.md). router.tsx imports this module only when a path the buyer's
 * routes do not match is opened, so a buyer's start-up neither downloads nor evaluates any of it
 * (test/e2e/bundle-budget.test.ts checks the entry names none of these paths).
 */
export const STAFF_LAYOUTS = [
  consoleLayout.addChildren([
    organiserRoute,
    organiserProfileRoute,
    organiserPayoutsRoute,
    organiserNewEventRoute,
    organiserEventPreviewRoute,
    eventLayout.addChildren([
      organiserEventEditorRoute,
      organiserTeamRoute,
      organiserSalesRoute,
      organiserOrdersRoute,
      organiserBoxOfficeRoute,
      organiserBookingRoute,
    ]),
  ]),
  adminLayout.addChildren([adminRoute]),
  gateLayout.addChildren([gateRoute, checkInRoute]),
] as const;

/**
 * Staff routes that wear the storefront: a team invitation, which someone without an account opens.
 * They join the buyer's layout when the rest is loaded.
 */
export const STAFF_BUYER_ROUTES = [organiserInvitationRoute] as const;
