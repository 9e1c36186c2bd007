import { and, asc, desc, eq, gt, inArray, sql, sum } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

export interface SlotCounters {
  /** People the slot's confirmed bookings admit. */
  expected: number;
  /** People admitted so far (the bookings' counts). */
  admitted: number;
  /** Admitted per gate, from the scan log (admissions minus undos), plus double-entry people. */
  gates: { gate: string; admitted: number; excess: number }[];
}

/**
 * The live counter of a gate screen and of the organiser's dashboard, written once for both engines
 * (ADR 0045). Sums are read through `Number`: PostgreSQL answers a sum as text.
 */
export function* slotCountersSteps(db: DbOrTx, slotId: string): Steps<SlotCounters> {
  const { bookings, gateScans } = tablesOf(db);
  const totals = yield* row(
    db
      .select({
        expected: sum(bookings.totalUserAllowed).mapWith(Number),
        admitted: sum(bookings.numberOfUserCheckedIn).mapWith(Number),
      })
      .from(bookings)
      .where(and(eq(bookings.slotId, slotId), eq(bookings.status, 'confirmed'))),
  );
  const gates = yield* rows(
    db
      .select({
        gate: gateScans.gate,
        admitted:
          sql<number>`coalesce(sum(case ${gateScans.kind} when 'admit' then ${gateScans.persons} when 'undo' then -${gateScans.persons} else 0 end), 0)`.mapWith(
            Number,
          ),
        excess: sql<number>`coalesce(sum(${gateScans.excess}), 0)`.mapWith(Number),
      })
      .from(gateScans)
      .where(eq(gateScans.slotId, slotId))
      .groupBy(gateScans.gate)
      .orderBy(asc(gateScans.gate)),
  );
  return {
    expected: totals?.expected ?? 0,
    admitted: totals?.admitted ?? 0,
    gates: gates.filter((g) => g.admitted !== 0 || g.excess !== 0),
  };
}

export interface DoubleEntry {
  scanId: string;
  /** Null for another event's ticket a device let in (not this event's to name). */
  bookingId: string | null;
  /** The holder, or what the ticket was (e.g. "Ticket for another event") when it names no booking here. */
  holderName: string;
  /** People who walked in beyond what the ticket allows. */
  excess: number;
  gate: string;
  /** The device that scanned it, and the account that sent it (offline: who uploaded the scan). */
  deviceId: string;
  staffName: string | null;
  scannedAt: string;
  /** The booking's other admissions: who else let it in, where and when. */
  others: { gate: string; staffName: string | null; scannedAt: string; persons: number; offline: boolean }[];
}

/** How many of the newest and how many of the worst double entries a list carries (each at most). */
export const DOUBLE_ENTRIES_SHOWN = 100;

/**
 * The double entries of these slots that matter most, worst (most people beyond the ticket) first, then
 * newest: the DOUBLE_ENTRIES_SHOWN worst and the DOUBLE_ENTRIES_SHOWN newest, so neither a flood of
 * small made-up entries nor an old large one hides the others (issue 35: the oldest 200 hid a real one).
 * Entries on no booking of this event are listed too: their excess is in the counters, so it shows here.
 */
export function* listDoubleEntriesSteps(
  db: DbOrTx,
  slotIds: string[],
  limit = DOUBLE_ENTRIES_SHOWN,
): Steps<DoubleEntry[]> {
  if (slotIds.length === 0) return [];
  const { bookings, gateScans, users } = tablesOf(db);
  const select = () =>
    db
      .select({
        scanId: gateScans.scanId,
        bookingId: gateScans.bookingId,
        holderName: bookings.userName,
        reason: gateScans.reason,
        excess: gateScans.excess,
        gate: gateScans.gate,
        deviceId: gateScans.deviceId,
        staffName: users.name,
        scannedAt: gateScans.scannedAt,
        seq: gateScans.seq,
      })
      .from(gateScans)
      .leftJoin(bookings, eq(bookings.id, gateScans.bookingId))
      .leftJoin(users, eq(users.id, gateScans.staffUserId))
      .where(and(inArray(gateScans.slotId, slotIds), gt(gateScans.excess, 0)))
      .limit(limit);
  const newest = yield* rows(select().orderBy(desc(gateScans.seq)));
  const worst = yield* rows(select().orderBy(desc(gateScans.excess), desc(gateScans.seq)));
  const found = [...new Map([...worst, ...newest].map((r) => [r.seq, r])).values()].sort(
    (a, b) => b.excess - a.excess || b.seq - a.seq,
  );
  const entries: DoubleEntry[] = [];
  for (const { seq, bookingId, holderName, reason, ...entry } of found)
    entries.push({
      ...entry,
      bookingId,
      holderName: holderName ?? reason ?? 'Unknown ticket',
      others: bookingId ? yield* otherAdmissionsSteps(db, bookingId) : [],
    });
  return entries;
}

/** How many double entries these slots have, and how many people they let in beyond their tickets. */
export function* countDoubleEntriesSteps(
  db: DbOrTx,
  slotIds: string[],
): Steps<{ entries: number; excess: number }> {
  if (slotIds.length === 0) return { entries: 0, excess: 0 };
  const { gateScans } = tablesOf(db);
  const found = yield* row(
    db
      .select({
        // PostgreSQL answers count and sum as text.
        entries: sql<number>`count(*)`.mapWith(Number),
        excess: sql<number>`coalesce(sum(${gateScans.excess}), 0)`.mapWith(Number),
      })
      .from(gateScans)
      .where(and(inArray(gateScans.slotId, slotIds), gt(gateScans.excess, 0))),
  );
  return { entries: found?.entries ?? 0, excess: found?.excess ?? 0 };
}

function* otherAdmissionsSteps(db: DbOrTx, bookingId: string): Steps<DoubleEntry['others']> {
  const { gateScans, users } = tablesOf(db);
  return yield* rows(
    db
      .select({
        gate: gateScans.gate,
        staffName: users.name,
        scannedAt: gateScans.scannedAt,
        persons: gateScans.persons,
        offline: gateScans.offline,
      })
      .from(gateScans)
      .leftJoin(users, eq(users.id, gateScans.staffUserId))
      .where(and(eq(gateScans.bookingId, bookingId), eq(gateScans.kind, 'admit'), gt(gateScans.persons, 0)))
      .orderBy(asc(gateScans.seq)),
  );
}
