import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { indiaCalendarDay } from '../../../shared/dates.ts';
import { EDITOR_MESSAGES, slotEndsNextDay } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { Clock } from '../../deps.ts';
import { badRequest, notFound } from '../../errors.ts';
import { indiaInstant, nextDay, refreshEventTimesSteps } from './event-times.ts';
import { editEvent } from './event-version.ts';
import { refuseTakenStartSteps } from './refuse-taken-start.ts';

/**
 * Adds a slot (start and end in India time) to one of the event's dates; not one already started, nor one
 * starting when another live slot of the event does (refuse-taken-start.ts). An end earlier than the start
 * is on the next day: the show runs past midnight (shared/event-editor-schemas.ts).
 */
export async function addSlot(
  db: Db,
  clock: Clock,
  eventId: string,
  basedOn: number,
  input: { dateId: string; startTime: string; endTime: string },
): Promise<{ version: number; slotId: string }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { eventDates, slots } = tablesOf(tx);
    const date = yield* row(
      tx
        .select({ dateOfEvent: eventDates.dateOfEvent })
        .from(eventDates)
        .where(and(eq(eventDates.id, input.dateId), eq(eventDates.eventId, eventId))),
    );
    if (!date) throw notFound(EDITOR_MESSAGES.dateNotFound);
    const day = indiaCalendarDay(date.dateOfEvent);
    if (input.endTime === input.startTime)
      throw badRequest(EDITOR_MESSAGES.slotEndEqualsStart, { endTime: EDITOR_MESSAGES.slotEndEqualsStart });
    const startTime = indiaInstant(day, input.startTime);
    const endTime = indiaInstant(slotEndsNextDay(input) ? nextDay(day) : day, input.endTime);
    if (Date.parse(startTime) <= clock.now().getTime()) {
      throw badRequest(EDITOR_MESSAGES.slotPast, { startTime: EDITOR_MESSAGES.slotPast });
    }
    yield* refuseTakenStartSteps(tx, eventId, startTime);
    const slotId = `slot-${randomUUID()}`;
    yield* changes(tx.insert(slots).values({ id: slotId, eventDateId: input.dateId, startTime, endTime }));
    yield* refreshEventTimesSteps(tx, eventId);
    return { version, slotId };
  });
}
