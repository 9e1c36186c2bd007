import { eq, sql } from 'drizzle-orm';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

/**
 * Keeps the event's own start and end (what lists order by and cards show) equal to its earliest slot's
 * start and latest slot's end, after slots were added or removed. An event without slots keeps the last.
 */
export function* refreshEventTimesSteps(tx: WriteTx, eventId: string): Steps<void> {
  const { eventDates, events, slots } = tablesOf(tx);
  const span = yield* row(
    tx
      .select({
        start: sql<string | null>`min(${slots.startTime})`,
        end: sql<string | null>`max(${slots.endTime})`,
      })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(eq(eventDates.eventId, eventId)),
  );
  if (!span?.start) return;
  yield* changes(
    tx.update(events).set({ startTime: span.start, endTime: span.end }).where(eq(events.id, eventId)),
  );
}

/** 'yyyy-MM-dd' and 'HH:MM' read in India time → a UTC ISO instant. */
export function indiaInstant(day: string, time: string): string {
  return new Date(`${day}T${time}:00.000+05:30`).toISOString();
}

/** The calendar day after 'yyyy-MM-dd' (a slot whose end time is before its start ends on it). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}
