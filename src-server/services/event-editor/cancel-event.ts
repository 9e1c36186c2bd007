import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventDates, events, slots } from '../../db/schema/catalog.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Clock } from '../../deps.ts';
import { refreshEventListing } from '../catalog/refresh-event-listing.ts';
import { cancelSlotsIn, confirmedBookingsOf } from './cancel-slots.ts';
import { claimVersion } from './event-version.ts';

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
  return writeTransaction(db, (tx) => {
    const version = claimVersion(tx, eventId, basedOn);
    const slotIds = slotIdsOf(tx, eventId);
    const { bookings } = confirmedBookingsOf(tx, slotIds);
    tx.update(events).set({ status: 'cancelled' }).where(eq(events.id, eventId)).run();
    cancelSlotsIn(tx, slotIds, clock.now());
    // A cancelled event leaves search and cached lists at once.
    refreshEventListing(tx, eventId);
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
