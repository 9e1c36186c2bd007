import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { indiaCalendarDay } from '../../../shared/dates.ts';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { eventDates } from '../../db/schema/catalog.ts';
import type { Clock } from '../../deps.ts';
import { badRequest, conflict } from '../../errors.ts';
import { indiaInstant } from './event-times.ts';
import { editEvent } from './event-version.ts';

/** Adds a calendar day (India time) to the event; its slots are added next. Not a day already past. */
export async function addEventDate(
  db: Db,
  clock: Clock,
  eventId: string,
  basedOn: number,
  day: string,
): Promise<{ version: number; dateId: string }> {
  if (day < indiaCalendarDay(clock.now()))
    throw badRequest(EDITOR_MESSAGES.dayPast, { day: EDITOR_MESSAGES.dayPast });
  const dateOfEvent = indiaInstant(day, '00:00');
  if (Number.isNaN(Date.parse(dateOfEvent)))
    throw badRequest(EDITOR_MESSAGES.dayInvalid, { day: EDITOR_MESSAGES.dayInvalid });
  return editEvent(db, eventId, basedOn, (tx, version) => {
    const taken = tx
      .select({ id: eventDates.id })
      .from(eventDates)
      .where(and(eq(eventDates.eventId, eventId), eq(eventDates.dateOfEvent, dateOfEvent)))
      .get();
    if (taken) throw conflict(EDITOR_MESSAGES.dateExists, { day: EDITOR_MESSAGES.dateExists });
    const dateId = `date-${randomUUID()}`;
    tx.insert(eventDates).values({ id: dateId, eventId, dateOfEvent, isLive: true }).run();
    return { version, dateId };
  });
}
