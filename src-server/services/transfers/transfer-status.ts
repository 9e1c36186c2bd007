import type { Db } from '../../db/client.ts';
import { notFound } from '../../errors.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from '../bookings/owner-bookings.ts';
import { loadTransferableBooking, pendingTransferOf, transferRefusal } from './transfer-rules.ts';

export type TransferStatusOfBooking =
  | { state: 'pending'; toName: string; toEmail: string; sentAt: string }
  | { state: 'available'; transfersLeft: number }
  | { state: 'unavailable'; reason: string };

/**
 * What My Bookings shows under one of the caller's own bookings: a transfer waiting for its recipient
 * (which the sender can cancel), "Transfer ticket", or why it cannot be transferred. Decided here.
 */
export function transferStatusOf(
  db: Db,
  userId: string,
  bookingId: string,
  now: Date,
): TransferStatusOfBooking {
  const booking = loadTransferableBooking(db, bookingId);
  if (!booking || booking.userId !== userId) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
  const pending = pendingTransferOf(db, bookingId);
  if (pending)
    return { state: 'pending', toName: pending.toName, toEmail: pending.toEmail, sentAt: pending.createdAt };
  const refusal = transferRefusal(booking, now);
  if (refusal) return { state: 'unavailable', reason: refusal };
  return { state: 'available', transfersLeft: booking.maxTransfersPerBooking - booking.transferCount };
}
