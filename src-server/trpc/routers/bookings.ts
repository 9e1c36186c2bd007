import { BookingIdInput } from '../../../shared/bookings-schemas.ts';
import { getOwnBooking, listOwnBookings } from '../../services/bookings/owner-bookings.ts';
import { protectedProcedure, publicProcedure, router } from '../init.ts';

export const bookingsRouter = router({
  /** My Bookings: the signed-in person's bookings, newest first. */
  mine: protectedProcedure.query(({ ctx }) => listOwnBookings(ctx.db, ctx.deps.appSecret, ctx.user.id)),

  /** The ticket page. Not signed in, not yours and unknown all answer NOT_FOUND alike. */
  byId: publicProcedure
    .input(BookingIdInput)
    .query(({ ctx, input }) =>
      getOwnBooking(ctx.db, ctx.deps.appSecret, ctx.user?.id ?? null, input.bookingId),
    ),
});
