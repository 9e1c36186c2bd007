import { z } from 'zod';

/** A booking named in a URL or a procedure call (My Bookings, the ticket page, downloads). */
export const BookingIdInput = z.object({
  bookingId: z.string().trim().min(1, 'No bookingId provided in URL.').max(200),
});
export type BookingIdInput = z.infer<typeof BookingIdInput>;

/** The most people one check-in call may admit on one ticket (a group at the gate). */
export const MAX_PERSONS_PER_CHECK_IN = 100;

/** What gate staff submit: the token read from a ticket's QR code, and how many people walk in on it. */
export const CheckInInput = z.object({
  token: z.string().trim().min(1, 'Scan or paste the ticket code').max(500, 'This is not a ticket code'),
  persons: z
    .number({ error: 'Enter a whole number of people' })
    .int('Enter a whole number of people')
    .min(1, 'Admit at least 1 person')
    .max(MAX_PERSONS_PER_CHECK_IN, `Admit at most ${MAX_PERSONS_PER_CHECK_IN} people at once`)
    .default(1),
});
export type CheckInInput = z.input<typeof CheckInInput>;
