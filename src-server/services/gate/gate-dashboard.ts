import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import {
  countDoubleEntriesSteps,
  type DoubleEntry,
  listDoubleEntriesSteps,
  type SlotCounters,
  slotCountersSteps,
} from './slot-counters.ts';

export interface GateDashboard {
  slots: ({ id: string; start: string; end: string } & SlotCounters)[];
  /** Per slot, the worst and the newest double entries (listDoubleEntries): maybe not all of them. */
  doubleEntries: (DoubleEntry & { slotId: string })[];
  /** All of the event's double entries, and the people they let in beyond their tickets. */
  doubleEntryTotals: { entries: number; excess: number };
}

/**
 * The organiser's view of the gates: admitted / expected per slot and gate, and every double entry.
 * Written once for both engines (ADR 0045); each read on its own, as before.
 */
export function gateDashboard(db: DbOrTx, eventId: string): Promise<GateDashboard> {
  return runStatements(db, (d) => gateDashboardSteps(d, eventId));
}

function* gateDashboardSteps(db: DbOrTx, eventId: string): Steps<GateDashboard> {
  const { eventDates, slots } = tablesOf(db);
  const slotRows = yield* rows(
    db
      .select({ id: slots.id, start: slots.startTime, end: slots.endTime })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(eq(eventDates.eventId, eventId))
      .orderBy(asc(slots.startTime)),
  );
  const withCounters: GateDashboard['slots'] = [];
  for (const s of slotRows) withCounters.push({ ...s, ...(yield* slotCountersSteps(db, s.id)) });
  const doubleEntries: GateDashboard['doubleEntries'] = [];
  for (const s of slotRows)
    for (const d of yield* listDoubleEntriesSteps(db, [s.id])) doubleEntries.push({ ...d, slotId: s.id });
  return {
    slots: withCounters,
    doubleEntries,
    doubleEntryTotals: yield* countDoubleEntriesSteps(
      db,
      slotRows.map((s) => s.id),
    ),
  };
}
