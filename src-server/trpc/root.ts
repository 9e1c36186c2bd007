import { router } from './init.ts';
import { adminRouter } from './routers/admin.ts';
import { authRouter } from './routers/auth.ts';
import { bookingsRouter } from './routers/bookings.ts';
import { consoleRouter } from './routers/console.ts';
import { contactRouter } from './routers/contact.ts';
import { eventBookingsRouter } from './routers/event-bookings.ts';
import { eventsRouter } from './routers/events.ts';
import { gateRouter } from './routers/gate.ts';
import { invoicesRouter } from './routers/invoices.ts';
import { organiserRouter } from './routers/organiser.ts';
import { organiserRequestsRouter } from './routers/organiser-requests.ts';
import { paymentsRouter } from './routers/payments.ts';
import { questionsRouter } from './routers/questions.ts';
import { ticketsRouter } from './routers/tickets.ts';
import { transfersRouter } from './routers/transfers.ts';
import { waitingRoomRouter } from './routers/waiting-room.ts';
import { waitlistRouter } from './routers/waitlist.ts';

export const appRouter = router({
  events: eventsRouter,
  auth: authRouter,
  contact: contactRouter,
  tickets: ticketsRouter,
  payments: paymentsRouter,
  bookings: bookingsRouter,
  organiserRequests: organiserRequestsRouter,
  console: consoleRouter,
  organiser: organiserRouter,
  eventBookings: eventBookingsRouter,
  admin: adminRouter,
  gate: gateRouter,
  invoices: invoicesRouter,
  transfers: transfersRouter,
  waitlist: waitlistRouter,
  waitingRoom: waitingRoomRouter,
  questions: questionsRouter,
});

export type AppRouter = typeof appRouter;
