import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventDates, slots } from '../../db/schema/catalog.ts';
import {
  countDoubleEntries,
  type DoubleEntry,
  listDoubleEntries,
  type SlotCounters,
  slotCounters,
} from './slot-counters.ts';

export interface GateDashboard {
  slots: ({ id: string; start: string; end: string } & SlotCounters)[];
  /** Per slot, the worst and the newest double entries (listDoubleEntries): maybe not all of them. */
  doubleEntries: (DoubleEntry & { slotId: string })[];
  /** All of the event's double entries, and the people they let in beyond their tickets. */
  doubleEntryTotals: { entries: number; excess: number };
}

/** The organiser's view of the gates: admitted / expected per slot and gate, and every double entry. */
export function gateDashboard(db: Db, eventId: string): GateDashboard {
  const slotRows = db
    .select({ id: slots.id, start: slots.startTime, end: slots.endTime })
    .from(slots)
    .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
    .where(eq(eventDates.eventId, eventId))
    .orderBy(asc(slots.startTime))
    .all();
  return {
    slots: slotRows.map((s) => ({ ...s, ...slotCounters(db, s.id) })),
    doubleEntries: slotRows.flatMap((s) =>
      listDoubleEntries(db, [s.id]).map((d) => ({ ...d, slotId: s.id })),
    ),
    doubleEntryTotals: countDoubleEntries(
      db,
      slotRows.map((s) => s.id),
    ),
  };
}
