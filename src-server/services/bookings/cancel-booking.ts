import { and, eq } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { issueRefund } from '../refunds/issue-refund.ts';
import { cancelBookingIn } from './cancel-booking-in.ts';

export const EVENT_BOOKING_NOT_FOUND = 'Booking not found';

/**
 * The organiser cancels one booking of their event with a full refund. Idempotent: cancelling a
 * booking already cancelled changes nothing and refunds nothing more. The refund is issued right away
 * (so the page shows its outcome); if the gateway fails, the refund job retries it.
 */
export async function cancelEventBooking(
  deps: AppDeps,
  eventId: string,
  bookingId: string,
): Promise<{ cancelled: boolean }> {
  const result = await writeTransaction(deps.db, (tx) => {
    const booking = tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), eq(bookings.eventId, eventId)))
      .get();
    if (!booking) throw notFound(EVENT_BOOKING_NOT_FOUND);
    return cancelBookingIn(tx, deps, booking.id, 'organiser', deps.clock.now());
  });
  if (result?.refundId) await issueRefund(deps, result.refundId);
  return { cancelled: result !== null };
}
