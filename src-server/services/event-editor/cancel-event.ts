import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventDates, events, slots } from '../../db/schema/catalog.ts';
import type { Clock } from '../../deps.ts';
import { cancelSlotsIn, confirmedBookingsOf } from './cancel-slots.ts';
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
  return editEvent(db, eventId, basedOn, (tx, version) => {
    const slotIds = slotIdsOf(tx, eventId);
    const { bookings } = confirmedBookingsOf(tx, slotIds);
    tx.update(events).set({ status: 'cancelled' }).where(eq(events.id, eventId)).run();
    // editEvent's refresh takes the cancelled event out of search and cached lists at once.
    cancelSlotsIn(tx, slotIds, clock.now());
    return { version, bookingsToRefund: bookings };
  });
}

export function slotIdsOf(tx: Pick<Db, 'select'>, eventId: string): string[] {
  return tx
    .select({ id: slots.id })
    .from(slots)
    .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
    .where(eq(eventDates.eventId, eventId))
    .all()
    .map((s) => s.id);
}
