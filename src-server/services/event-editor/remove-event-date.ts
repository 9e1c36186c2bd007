import { and, eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { eventDates } from '../../db/schema/catalog.ts';
import { conflict, notFound } from '../../errors.ts';
import { refreshEventTimes } from './event-times.ts';
import { editEvent } from './event-version.ts';
import { hasBookings } from './sold-or-held.ts';

/** Deletes a date with its slots and ticket types, unless anything on it was ever booked or held. */
export async function removeEventDate(
  db: Db,
  eventId: string,
  basedOn: number,
  dateId: string,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    const date = tx
      .select({ id: eventDates.id })
      .from(eventDates)
      .where(and(eq(eventDates.id, dateId), eq(eventDates.eventId, eventId)))
      .get();
    if (!date) throw notFound(EDITOR_MESSAGES.dateNotFound);
    if (hasBookings(tx, { eventDateId: dateId })) throw conflict(EDITOR_MESSAGES.hasBookings('date'));
    tx.delete(eventDates).where(eq(eventDates.id, dateId)).run();
    refreshEventTimes(tx, eventId);
    return { version };
  });
}
