import { and, eq } from 'drizzle-orm';
import { TRANSFER_MESSAGES } from '../../../shared/transfer-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { bookingTransfers } from '../../db/schema/transfers.ts';
import { everAdmitted } from '../gate/ever-admitted.ts';

/** A booking as the transfer rules read it (written once for both engines, ADR 0045). */
export function* loadTransferableBookingSteps(db: DbOrTx, bookingId: string) {
  const { bookings, events, slots } = tablesOf(db);
  return (
    (yield* row(
      db
        .select({
          id: bookings.id,
          userId: bookings.userId,
          userName: bookings.userName,
          userEmail: bookings.userEmail,
          status: bookings.status,
          ticketSlot: bookings.ticketSlot,
          ticketSlotEnd: bookings.ticketSlotEnd,
          eventName: bookings.eventName,
          // Ever, not now: an undo at the gate lowers today's count, never what walked in (issue 35).
          used: everAdmitted(bookings),
          transferCount: bookings.transferCount,
          paidByUserId: bookings.paidByUserId,
          eventStatus: events.status,
          transfersAllowed: events.transfersAllowed,
          maxTransfersPerBooking: events.maxTransfersPerBooking,
          slotCancelledAt: slots.cancelledAt,
        })
        .from(bookings)
        .innerJoin(events, eq(events.id, bookings.eventId))
        .leftJoin(slots, eq(slots.id, bookings.slotId))
        .where(eq(bookings.id, bookingId)),
    )) ?? null
  );
}

export type TransferableBooking = NonNullable<
  ReturnType<typeof loadTransferableBookingSteps> extends Steps<infer T> ? T : never
>;

/**
 * Why this booking cannot change hands now, or null when it can: it must be confirmed, its show neither
 * cancelled nor over, nobody ever admitted with it (an undone admission still counts), the organiser must allow transfers and the booking must
 * be under the organiser's limit. Asked when the sender starts a transfer and again when it is accepted.
 */
export function transferRefusal(b: TransferableBooking, now: Date): string | null {
  if (b.eventStatus === 'cancelled' || b.slotCancelledAt) return TRANSFER_MESSAGES.showCancelled;
  if (b.status !== 'confirmed') return TRANSFER_MESSAGES.cancelled;
  if (b.used) return TRANSFER_MESSAGES.checkedIn;
  if (now.getTime() >= Date.parse(b.ticketSlotEnd)) return TRANSFER_MESSAGES.over;
  if (!b.transfersAllowed) return TRANSFER_MESSAGES.switchedOff;
  if (b.transferCount >= b.maxTransfersPerBooking) return TRANSFER_MESSAGES.limitReached;
  return null;
}

/** The transfer of a booking still waiting to be accepted, if any (at most one: a unique partial index). */
export function* pendingTransferOfSteps(
  db: DbOrTx,
  bookingId: string,
): Steps<typeof bookingTransfers.$inferSelect | null> {
  const transfers = tablesOf(db).bookingTransfers;
  return (
    (yield* row(
      db
        .select()
        .from(transfers)
        .where(and(eq(transfers.bookingId, bookingId), eq(transfers.status, 'pending'))),
    )) ?? null
  );
}
