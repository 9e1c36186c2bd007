import { CancelEventBookingInput, EventBookingInput } from '../../../shared/event-booking-schemas.ts';
import { RefundPartInput } from '../../../shared/partial-refund-schemas.ts';
import { cancelEventBooking } from '../../services/bookings/cancel-booking.ts';
import { getEventBooking } from '../../services/bookings/get-event-booking.ts';
import { resendTicketMail } from '../../services/bookings/resend-ticket-mail.ts';
import { refundBookingPart } from '../../services/partial-refunds/refund-booking-part.ts';
import { eventProcedure, router } from '../init.ts';

/** One booking of an event, for its owner, co-organisers and admins (the console's booking page). */
export const eventBookingsRouter = router({
  booking: eventProcedure('manageBookings')
    .input(EventBookingInput)
    .query(({ ctx, input }) => getEventBooking(ctx.db, ctx.event.id, input.bookingId)),

  /**
   * Cancels with a full refund; cancelling again refunds nothing more. A booking used at the gate needs
   * `refundUsedTickets` (its seats stay off sale).
   */
  cancel: eventProcedure('manageBookings')
    .input(CancelEventBookingInput)
    .mutation(({ ctx, input }) =>
      cancelEventBooking(ctx.deps, ctx.event.id, input.bookingId, {
        refundUsedTickets: input.refundUsedTickets,
        actorUserId: ctx.user.id,
      }),
    ),

  /**
   * Refunds part of a booking (an amount, or everything but the fee), with a reason the buyer is told and
   * optionally some of its tickets cancelled (issue 40, ADR 0043).
   */
  refundPart: eventProcedure('manageBookings')
    .input(RefundPartInput)
    .mutation(({ ctx, input }) => refundBookingPart(ctx.deps, ctx.event.id, input, ctx.user.id)),

  /** Mails the ticket to the buyer again (rate-limited). */
  resendTicket: eventProcedure('manageBookings')
    .input(EventBookingInput)
    .mutation(({ ctx, input }) => resendTicketMail(ctx.deps, ctx.event.id, input.bookingId, ctx.user.id)),
});
