import { z } from 'zod';

/** A booking named in a URL or a procedure call (My Bookings, the ticket page, downloads). */
export const BookingIdInput = z.object({
  bookingId: z.string().trim().min(1, 'No bookingId provided in URL.').max(200),
});
export type BookingIdInput = z.infer<typeof BookingIdInput>;
