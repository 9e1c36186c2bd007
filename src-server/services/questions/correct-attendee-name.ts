import { and, eq } from 'drizzle-orm';
import { QUESTION_MESSAGES } from '../../../shared/question-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict, notFound } from '../../errors.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from '../bookings/owner-bookings.ts';

/** Names can be corrected until this long before the show starts (ADR 0040). */
export const NAME_CUT_OFF_MS = 24 * 60 * 60 * 1000;

/**
 * The holder corrects (or adds) the name of one ticket of their booking from My Bookings, until 24 hours
 * before the slot starts: the gate's lists are settled by then. Someone else's booking answers as not
 * found; the change is recorded in the order history with the old and new name. Written once for both
 * engines (ADR 0045): on PostgreSQL under the booking's lock, so two corrections of one name record
 * each other's "from", and a transfer or cancellation in between is read.
 */
export function correctAttendeeName(
  db: DbOrTx,
  userId: string,
  input: { bookingId: string; ticketTypeId: string; position: number; name: string },
  now: Date,
): Promise<{ bookingId: string; ticketTypeId: string; position: number; name: string }> {
  return runnerFor(db).write(function* (tx) {
    const { bookings, paymentOrders, bookingAttendees } = tablesOf(tx);
    yield* serialize(bookingLockKey(input.bookingId));
    const booking = yield* row(
      tx
        .select({
          id: bookings.id,
          status: bookings.status,
          slotStart: bookings.ticketSlot,
          lines: bookings.ticketTypes,
          holdId: paymentOrders.holdId,
        })
        .from(bookings)
        .leftJoin(paymentOrders, eq(paymentOrders.id, bookings.orderId))
        .where(and(eq(bookings.id, input.bookingId), eq(bookings.userId, userId))),
    );
    if (!booking) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
    if (booking.status !== 'confirmed') throw conflict(QUESTION_MESSAGES.bookingNotChangeable);
    if (now.getTime() > Date.parse(booking.slotStart) - NAME_CUT_OFF_MS) {
      throw conflict(QUESTION_MESSAGES.nameCutOffPassed);
    }
    const line = booking.lines.find((l) => l.id === input.ticketTypeId);
    if (!line || input.position > line.quantity) throw notFound(QUESTION_MESSAGES.attendeeNotFound);
    const where = and(
      eq(bookingAttendees.bookingId, booking.id),
      eq(bookingAttendees.ticketTypeId, input.ticketTypeId),
      eq(bookingAttendees.position, input.position),
    );
    const before = yield* row(tx.select({ name: bookingAttendees.name }).from(bookingAttendees).where(where));
    if (before) {
      yield* changes(
        tx.update(bookingAttendees).set({ name: input.name, updatedAt: now.toISOString() }).where(where),
      );
    } else {
      yield* changes(
        tx.insert(bookingAttendees).values({
          holdId: booking.holdId,
          bookingId: booking.id,
          ticketTypeId: input.ticketTypeId,
          position: input.position,
          name: input.name,
          updatedAt: now.toISOString(),
        }),
      );
    }
    yield* recordBookingEventSteps(tx, {
      bookingId: booking.id,
      kind: 'attendee_name_corrected',
      actor: 'buyer',
      actorUserId: userId,
      at: now,
      details: {
        ticketType: line.name,
        position: input.position,
        from: before?.name ?? null,
        to: input.name,
      },
    });
    return {
      bookingId: booking.id,
      ticketTypeId: input.ticketTypeId,
      position: input.position,
      name: input.name,
    };
  });
}
