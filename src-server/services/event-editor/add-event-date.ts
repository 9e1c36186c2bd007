import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { indiaCalendarDay } from '../../../shared/dates.ts';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
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
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { eventDates } = tablesOf(tx);
    // Compared as India calendar days, not as stored instants: dates this editor adds are midnight, but
    // those of events made before it (the demo's, a previous release's) hold the show's start time.
    const dates = yield* rows(
      tx
        .select({ dateOfEvent: eventDates.dateOfEvent })
        .from(eventDates)
        .where(eq(eventDates.eventId, eventId)),
    );
    const taken = dates.some((date) => indiaCalendarDay(date.dateOfEvent) === day);
    if (taken) throw conflict(EDITOR_MESSAGES.dateExists, { day: EDITOR_MESSAGES.dateExists });
    const dateId = `date-${randomUUID()}`;
    yield* changes(tx.insert(eventDates).values({ id: dateId, eventId, dateOfEvent, isLive: true }));
    return { version, dateId };
  });
}
