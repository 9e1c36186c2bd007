import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, exists, inArray, isNotNull, sql } from 'drizzle-orm';
import { runnerFor } from '../../db/engine/runner.ts';
import { rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { cancelBookingSteps } from './cancel-booking-in.ts';

/** Bookings cancelled per write transaction: short enough that buyers' Proceeds never wait long. */
export const CANCEL_BATCH = 100;

/**
 * Works through the confirmed bookings of cancelled slots (a slot or a whole event cancelled), one
 * bounded batch per transaction, giving the event loop a turn between batches, so cancelling an event
 * with thousands of bookings never stalls the server. The work to do is simply "confirmed bookings of
 * a cancelled slot" in the database, so a restart loses nothing. Returns how many it cancelled. Written
 * once for both engines (ADR 0045).
 */
export async function cancelBookingsOfCancelledSlots(
  deps: AppDeps,
  options: { maxBatches?: number; batch?: number } = {},
): Promise<number> {
  const batch = options.batch ?? CANCEL_BATCH;
  let cancelled = 0;
  for (let round = 0; round < (options.maxBatches ?? Number.POSITIVE_INFINITY); round++) {
    const done = await runnerFor(deps.db).write(function* (tx) {
      const { bookings, eventDates, events, slots } = tablesOf(tx);
      // Cancelled slots that still have confirmed bookings (a partial index holds only cancelled slots,
      // and the bookings are checked by index), then those bookings.
      const cancelledSlots = yield* rows(
        tx
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
          .limit(50),
      );
      if (cancelledSlots.length === 0) return { picked: 0, cancelled: 0 };
      const eventStatusOf = new Map(cancelledSlots.map((s) => [s.id, s.eventStatus]));
      const due = yield* rows(
        tx
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
          .limit(batch),
      );
      const now = deps.clock.now();
      let cancelledNow = 0;
      // Each cancel takes its booking's lock: in id order, so two servers' jobs wait but never deadlock.
      for (const row of [...due].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        const reason = eventStatusOf.get(row.slotId) === 'cancelled' ? 'event_cancelled' : 'slot_cancelled';
        // Two servers' jobs may pick the same booking: its conditional UPDATE lets one cancel it.
        if (yield* cancelBookingSteps(tx as WriteTx, deps, row.id, reason, now)) cancelledNow += 1;
      }
      return { picked: due.length, cancelled: cancelledNow };
    });
    cancelled += done.cancelled;
    if (done.picked < batch) break;
    await nextTurn();
  }
  return cancelled;
}
