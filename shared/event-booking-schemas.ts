import { z } from 'zod';

/** One booking of one event, as the console's booking page names it. */
export const EventBookingInput = z.object({
  eventId: z.string().min(1).max(100),
  bookingId: z.string().min(1).max(100),
});
export type EventBookingInput = z.infer<typeof EventBookingInput>;
