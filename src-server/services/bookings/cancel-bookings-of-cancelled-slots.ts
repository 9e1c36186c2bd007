import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, exists, inArray, isNotNull, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';
import { eventDates, events, slots } from '../../db/schema/catalog.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { cancelBookingIn } from './cancel-booking-in.ts';

/** Bookings cancelled per write transaction: short enough that buyers' Proceeds never wait long. */
export const CANCEL_BATCH = 100;

/**
 * Works through the confirmed bookings of cancelled slots (a slot or a whole event cancelled), one
 * bounded batch per transaction, giving the event loop a turn between batches, so cancelling an event
 * with thousands of bookings never stalls the server. The work to do is simply "confirmed bookings of
 * a cancelled slot" in the database, so a restart loses nothing. Returns how many it cancelled.
 */
export async function cancelBookingsOfCancelledSlots(
  deps: AppDeps,
  options: { maxBatches?: number; batch?: number } = {},
): Promise<number> {
  const batch = options.batch ?? CANCEL_BATCH;
  let cancelled = 0;
  for (let round = 0; round < (options.maxBatches ?? Number.POSITIVE_INFINITY); round++) {
    const done = await writeTransaction(deps.db, (tx) => {
      // Cancelled slots that still have confirmed bookings (a partial index holds only cancelled slots,
      // and the bookings are checked by index), then those bookings.
      const cancelledSlots = tx
        .select({ id: slots.id, eventStatus: events.status })
        .from(slots)
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .innerJoin(events, eq(events.id, eventDates.eventId))
        .where(
          and(
            isNotNull(slots.cancelledAt),
            exists(
              tx
                .select({ one: sql`1` })
                .from(bookings)
                .where(and(eq(bookings.slotId, slots.id), eq(bookings.status, 'confirmed'))),
            ),
          ),
        )
        .limit(50)
        .all();
      if (cancelledSlots.length === 0) return 0;
      const eventStatusOf = new Map(cancelledSlots.map((s) => [s.id, s.eventStatus]));
      const due = tx
        .select({ id: bookings.id, slotId: bookings.slotId })
        .from(bookings)
        .where(
          and(
            inArray(
              bookings.slotId,
              cancelledSlots.map((s) => s.id),
            ),
            eq(bookings.status, 'confirmed'),
          ),
        )
        .limit(batch)
        .all();
      const now = deps.clock.now();
      for (const row of due) {
        const reason = eventStatusOf.get(row.slotId) === 'cancelled' ? 'event_cancelled' : 'slot_cancelled';
        cancelBookingIn(tx, deps, row.id, reason, now);
      }
      return due.length;
    });
    cancelled += done;
    if (done < batch) break;
    await nextTurn();
  }
  return cancelled;
}
