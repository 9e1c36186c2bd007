import { z } from 'zod';

/** A booking named in a URL or a procedure call (My Bookings, the ticket page, downloads). */
export const BookingIdInput = z.object({
  bookingId: z.string().trim().min(1, 'No bookingId provided in URL.').max(200),
});
export type BookingIdInput = z.infer<typeof BookingIdInput>;

/**
 * The ticket page: the booking id, and the ticket's own signed token when the link came by mail to a
 * buyer without an account (a box-office sale, issue 40, ADR 0042): the token is what the QR carries.
 */
export const TicketPageInput = BookingIdInput.extend({
  token: z.string().trim().max(300).optional(),
});
export type TicketPageInput = z.infer<typeof TicketPageInput>;
