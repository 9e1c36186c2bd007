import { BookingIdInput, CheckInInput } from '../../../shared/bookings-schemas.ts';
import { getOwnBooking, listOwnBookings } from '../../services/bookings/owner-bookings.ts';
import { checkInTicket } from '../../services/tickets/check-in.ts';
import { protectedProcedure, publicProcedure, router, staffProcedure } from '../init.ts';

export const bookingsRouter = router({
  /** My Bookings: the signed-in person's bookings, newest first. */
  mine: protectedProcedure.query(({ ctx }) => listOwnBookings(ctx.db, ctx.deps.appSecret, ctx.user.id)),

  /** The ticket page. Not signed in, not yours and unknown all answer NOT_FOUND alike. */
  byId: publicProcedure
    .input(BookingIdInput)
    .query(({ ctx, input }) =>
      getOwnBooking(ctx.db, ctx.deps.appSecret, ctx.user?.id ?? null, input.bookingId),
    ),

  /** Whether the caller may use the check-in page (the page only decides what to show; checkIn authorises). */
  canCheckIn: publicProcedure.query(({ ctx }) => ctx.user?.isStaff ?? false),

  /** Gate check-in from a scanned or pasted QR token (staff only). */
  checkIn: staffProcedure
    .input(CheckInInput)
    .mutation(({ ctx, input }) => checkInTicket(ctx.db, ctx.deps.appSecret, input, ctx.deps.clock.now())),
});
