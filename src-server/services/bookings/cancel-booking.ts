import { and, eq } from 'drizzle-orm';
import { runnerFor } from '../../db/engine/runner.ts';
import { row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict, notFound } from '../../errors.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';
import { issueRefund } from '../refunds/issue-refund.ts';
import { bookingLockKey } from './booking-lock.ts';
import { cancelBookingSteps } from './cancel-booking-in.ts';

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
 * `cancelBookingSteps` keeps them). Decided inside the write transaction, so a scan cannot slip between;
 * written once for both engines (ADR 0045).
 */
export async function cancelEventBooking(
  deps: AppDeps,
  eventId: string,
  bookingId: string,
  options: { refundUsedTickets?: boolean; actorUserId?: string } = {},
): Promise<{ cancelled: boolean }> {
  const result = await runnerFor(deps.db).write(function* (tx) {
    const { bookings } = tablesOf(tx);
    // On PostgreSQL "was anyone admitted?" is read under the booking's lock, which the gate takes too.
    yield* serialize(bookingLockKey(bookingId));
    const booking = yield* row(
      tx
        .select({ id: bookings.id, status: bookings.status, used: everAdmitted(bookings) })
        .from(bookings)
        .where(and(eq(bookings.id, bookingId), eq(bookings.eventId, eventId))),
    );
    if (!booking) throw notFound(EVENT_BOOKING_NOT_FOUND);
    if (booking.status === 'confirmed' && booking.used && !options.refundUsedTickets)
      throw conflict(USED_BOOKING_REFUSAL);
    return yield* cancelBookingSteps(tx as WriteTx, deps, booking.id, 'organiser', deps.clock.now(), {
      actorUserId: options.actorUserId,
    });
  });
  if (result?.refundId) await issueRefund(deps, result.refundId);
  return { cancelled: result !== null };
}
