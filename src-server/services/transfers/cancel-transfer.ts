import { and, eq } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict, notFound } from '../../errors.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from '../bookings/owner-bookings.ts';

/**
 * The sender takes back a transfer nobody has accepted yet: its link stops working. On PostgreSQL it
 * takes the booking's lock, as the acceptance does, so a take-back and an acceptance never both pass.
 */
export function cancelTransfer(
  db: DbOrTx,
  userId: string,
  bookingId: string,
  now: Date,
): Promise<{ cancelled: true }> {
  return runnerFor(db).write(function* (tx) {
    const { bookings, bookingTransfers } = tablesOf(tx);
    yield* serialize(bookingLockKey(bookingId));
    const own = yield* row(
      tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId))),
    );
    if (!own) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
    const changed = yield* changes(
      tx
        .update(bookingTransfers)
        .set({ status: 'cancelled', cancelledAt: now.toISOString() })
        .where(and(eq(bookingTransfers.bookingId, bookingId), eq(bookingTransfers.status, 'pending'))),
    );
    if (changed === 0) throw conflict(TRANSFER_MESSAGES.noPending);
    yield* recordBookingEventSteps(tx, {
      bookingId,
      kind: 'transfer_cancelled',
      actor: 'buyer',
      actorUserId: userId,
      at: now,
    });
    return { cancelled: true as const };
  });
}
