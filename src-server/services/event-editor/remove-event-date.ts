import { and, eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict, notFound } from '../../errors.ts';
import { refreshEventTimesSteps } from './event-times.ts';
import { editEvent } from './event-version.ts';
import { hasBookingsSteps } from './sold-or-held.ts';

/** Deletes a date with its slots and ticket types, unless anything on it was ever booked or held. */
export async function removeEventDate(
  db: Db,
  eventId: string,
  basedOn: number,
  dateId: string,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { eventDates } = tablesOf(tx);
    const date = yield* row(
      tx
        .select({ id: eventDates.id })
        .from(eventDates)
        .where(and(eq(eventDates.id, dateId), eq(eventDates.eventId, eventId))),
    );
    if (!date) throw notFound(EDITOR_MESSAGES.dateNotFound);
    if (yield* hasBookingsSteps(tx, { eventDateId: dateId }))
      throw conflict(EDITOR_MESSAGES.hasBookings('date'));
    yield* changes(tx.delete(eventDates).where(eq(eventDates.id, dateId)));
    yield* refreshEventTimesSteps(tx, eventId);
    return { version };
  });
}
