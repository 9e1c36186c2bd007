import { z } from 'zod';

/** One booking of one event, as the console's booking page names it. */
export const EventBookingInput = z.object({
  eventId: z.string().min(1).max(100),
  bookingId: z.string().min(1).max(100),
});
export type EventBookingInput = z.infer<typeof EventBookingInput>;

/**
 * The organiser's cancel. `refundUsedTickets`: the explicit "refund anyway" for a booking people were
 * admitted with at the gate (without it such a cancel is refused; with it the seats still stay off sale).
 */
export const CancelEventBookingInput = EventBookingInput.extend({
  refundUsedTickets: z.boolean().optional(),
});
export type CancelEventBookingInput = z.infer<typeof CancelEventBookingInput>;
