import { and, eq } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict, notFound } from '../../errors.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import { issueRefund } from '../refunds/issue-refund.ts';
import { cancelBookingIn } from './cancel-booking-in.ts';

export const EVENT_BOOKING_NOT_FOUND = 'Booking not found';
export const USED_BOOKING_REFUSAL =
  'People have already been admitted with this booking at the gate. Choose “Refund anyway” to cancel it and refund the buyer; its seats will not go back on sale.';

/**
 * The organiser cancels one booking of their event with a full refund. Idempotent: cancelling a
 * booking already cancelled changes nothing and refunds nothing more. The refund is issued right away
 * (so the page shows its outcome); if the gateway fails, the refund job retries it.
 *
 * A booking people were admitted with (ever: an undone admission too) is refused unless the organiser
 * chose to refund it anyway: the money then goes back, but its seats never go back on sale (issue 35;
 * `cancelBookingIn` keeps them). Decided inside the write transaction, so a scan cannot slip between.
 */
export async function cancelEventBooking(
  deps: AppDeps,
  eventId: string,
  bookingId: string,
  options: { refundUsedTickets?: boolean; actorUserId?: string } = {},
): Promise<{ cancelled: boolean }> {
  const result = await writeTransaction(deps.db, (tx) => {
    const booking = tx
      .select({ id: bookings.id, status: bookings.status, used: everAdmitted() })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), eq(bookings.eventId, eventId)))
      .get();
    if (!booking) throw notFound(EVENT_BOOKING_NOT_FOUND);
    if (booking.status === 'confirmed' && booking.used && !options.refundUsedTickets)
      throw conflict(USED_BOOKING_REFUSAL);
    return cancelBookingIn(
      tx,
      deps,
      booking.id,
      'organiser',
      deps.clock.now(),
      undefined,
      options.actorUserId,
    );
  });
  if (result?.refundId) await issueRefund(deps, result.refundId);
  return { cancelled: result !== null };
}
