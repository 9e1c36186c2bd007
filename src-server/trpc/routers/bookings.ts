import { BookingIdInput } from '../../../shared/bookings-schemas.ts';
import { CancelSomeTicketsInput } from '../../../shared/partial-refund-schemas.ts';
import { cancelOwnBooking, quoteOwnCancellation } from '../../services/bookings/buyer-cancellation.ts';
import { getOwnBooking, listOwnBookings } from '../../services/bookings/owner-bookings.ts';
import { cancelSomeTickets } from '../../services/partial-refunds/cancel-some-tickets.ts';
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

  /** What cancelling one's own booking would refund now, or why it cannot be cancelled. */
  cancellationQuote: protectedProcedure
    .input(BookingIdInput)
    .query(({ ctx, input }) =>
      quoteOwnCancellation(ctx.db, ctx.user.id, input.bookingId, ctx.deps.clock.now()),
    ),

  /** The buyer cancels their own booking under the event's refund policy (ADR 0019). */
  cancel: protectedProcedure
    .input(BookingIdInput)
    .mutation(({ ctx, input }) => cancelOwnBooking(ctx.deps, ctx.user.id, input.bookingId)),

  /** The buyer cancels some tickets of their own booking under the policy (issue 36 item 12). */
  cancelSomeTickets: protectedProcedure
    .input(CancelSomeTicketsInput)
    .mutation(({ ctx, input }) => cancelSomeTickets(ctx.deps, ctx.user.id, input)),
});
