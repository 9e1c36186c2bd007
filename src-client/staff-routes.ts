import { adminRoute } from './routes/admin/admin.tsx';
import { checkInRoute } from './routes/gate/check-in.tsx';
import { gateRoute } from './routes/gate/gate.tsx';
import { organiserRoute } from './routes/console/organiser.tsx';
import { organiserBookingRoute } from './routes/console/organiser-booking.tsx';
import { organiserBoxOfficeRoute } from './routes/console/organiser-box-office.tsx';
import { organiserEventEditorRoute } from './routes/console/organiser-event-editor.tsx';
import { organiserEventPreviewRoute } from './routes/console/organiser-event-preview.tsx';
import { organiserInvitationRoute } from './routes/console/organiser-invitation.tsx';
import { organiserNewEventRoute } from './routes/console/organiser-new-event.tsx';
import { organiserOrdersRoute } from './routes/console/organiser-orders.tsx';
import { organiserProfileRoute } from './routes/console/organiser-profile.tsx';
import { organiserSalesRoute } from './routes/console/organiser-sales.tsx';
import { organiserTeamRoute } from './routes/console/organiser-team.tsx';

/**
 * The organiser console's, the admin's and the gate's routes (issue 39). router.tsx imports this module
 * only when a path the buyer's routes do not match is opened, so a buyer's start-up neither downloads
 * nor evaluates any of it (test/e2e/bundle-budget.test.ts checks the entry names none of these paths).
 */
export const STAFF_ROUTES = [
  checkInRoute,
  gateRoute,
  organiserRoute,
  organiserTeamRoute,
  organiserProfileRoute,
  organiserEventPreviewRoute,
  organiserBookingRoute,
  organiserNewEventRoute,
  organiserEventEditorRoute,
  organiserInvitationRoute,
  organiserSalesRoute,
  organiserOrdersRoute,
  organiserBoxOfficeRoute,
  adminRoute,
] as const;
