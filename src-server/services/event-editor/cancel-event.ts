import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { changes, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { Clock } from '../../deps.ts';
import { cancelSlotsInSteps, confirmedBookingsOfSteps } from './cancel-slots.ts';
import { editEvent } from './event-version.ts';

/**
 * Cancels the whole event: its status becomes 'cancelled' (the event page says so, nothing can be
 * bought, the editor refuses further edits), every slot is cancelled as in cancelSlot, and every
 * confirmed booking will be cancelled and refunded. Answers how many bookings are being refunded.
 */
export async function cancelEvent(
  db: Db,
  clock: Clock,
  eventId: string,
  basedOn: number,
): Promise<{ version: number; bookingsToRefund: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { events } = tablesOf(tx);
    const slotIds = yield* slotIdsOfSteps(tx, eventId);
    const { bookings } = yield* confirmedBookingsOfSteps(tx, slotIds);
    yield* changes(tx.update(events).set({ status: 'cancelled' }).where(eq(events.id, eventId)));
    // editEvent's refresh takes the cancelled event out of search and cached lists at once.
    yield* cancelSlotsInSteps(tx, slotIds, clock.now());
    return { version, bookingsToRefund: bookings };
  });
}

export function* slotIdsOfSteps(tx: Pick<Db, 'select'>, eventId: string): Steps<string[]> {
  const { eventDates, slots } = tablesOf(tx);
  const found = yield* rows(
    tx
      .select({ id: slots.id })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(eq(eventDates.eventId, eventId)),
  );
  return found.map((s) => s.id);
}
