import { and, eq } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { bookingTransfers } from '../../db/schema/transfers.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { recordBookingEvent } from '../bookings/booking-history.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from '../bookings/owner-bookings.ts';

/** The sender takes back a transfer nobody has accepted yet: its link stops working. */
export function cancelTransfer(
  db: Db,
  userId: string,
  bookingId: string,
  now: Date,
): Promise<{ cancelled: true }> {
  return writeTransaction(db, (tx) => {
    const own = tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)))
      .get();
    if (!own) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
    const changed = tx
      .update(bookingTransfers)
      .set({ status: 'cancelled', cancelledAt: now.toISOString() })
      .where(and(eq(bookingTransfers.bookingId, bookingId), eq(bookingTransfers.status, 'pending')))
      .run().changes;
    if (changed === 0) throw conflict(TRANSFER_MESSAGES.noPending);
    recordBookingEvent(tx, {
      bookingId,
      kind: 'transfer_cancelled',
      actor: 'buyer',
      actorUserId: userId,
      at: now,
    });
    return { cancelled: true as const };
  });
}
