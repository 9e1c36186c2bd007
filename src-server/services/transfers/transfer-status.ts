import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { notFound } from '../../errors.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from '../bookings/owner-bookings.ts';
import { loadTransferableBookingSteps, pendingTransferOfSteps, transferRefusal } from './transfer-rules.ts';

export type TransferStatusOfBooking =
  | { state: 'pending'; toName: string; toEmail: string; sentAt: string }
  | { state: 'available'; transfersLeft: number }
  | { state: 'unavailable'; reason: string };

/**
 * What My Bookings shows under one of the caller's own bookings: a transfer waiting for its recipient
 * (which the sender can cancel), "Transfer ticket", or why it cannot be transferred. Decided here, on
 * either engine (ADR 0045).
 */
export function transferStatusOf(
  db: DbOrTx,
  userId: string,
  bookingId: string,
  now: Date,
): Promise<TransferStatusOfBooking> {
  return runStatements(db, function* (d) {
    const booking = yield* loadTransferableBookingSteps(d, bookingId);
    if (!booking || booking.userId !== userId) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
    const pending = yield* pendingTransferOfSteps(d, bookingId);
    if (pending)
      return {
        state: 'pending',
        toName: pending.toName,
        toEmail: pending.toEmail,
        sentAt: pending.createdAt,
      } as const;
    const refusal = transferRefusal(booking, now);
    if (refusal) return { state: 'unavailable', reason: refusal } as const;
    return {
      state: 'available',
      transfersLeft: booking.maxTransfersPerBooking - booking.transferCount,
    } as const;
  });
}
