import { and, asc, eq, gt, inArray, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { gateScans } from '../../db/schema/gate.ts';

export interface SlotCounters {
  /** People the slot's confirmed bookings admit. */
  expected: number;
  /** People admitted so far (the bookings' counts). */
  admitted: number;
  /** Admitted per gate, from the scan log (admissions minus undos), plus double-entry people. */
  gates: { gate: string; admitted: number; excess: number }[];
}

/** The live counter of a gate screen and of the organiser's dashboard. */
export function slotCounters(db: Db, slotId: string): SlotCounters {
  const totals = db
    .select({
      expected: sum(bookings.totalUserAllowed).mapWith(Number),
      admitted: sum(bookings.numberOfUserCheckedIn).mapWith(Number),
    })
    .from(bookings)
    .where(and(eq(bookings.slotId, slotId), eq(bookings.status, 'confirmed')))
    .get();
  const gates = db
    .select({
      gate: gateScans.gate,
      admitted: sql<number>`coalesce(sum(case ${gateScans.kind} when 'admit' then ${gateScans.persons} when 'undo' then -${gateScans.persons} else 0 end), 0)`,
      excess: sql<number>`coalesce(sum(${gateScans.excess}), 0)`,
    })
    .from(gateScans)
    .where(eq(gateScans.slotId, slotId))
    .groupBy(gateScans.gate)
    .orderBy(asc(gateScans.gate))
    .all();
  return {
    expected: totals?.expected ?? 0,
    admitted: totals?.admitted ?? 0,
    gates: gates.filter((g) => g.admitted !== 0 || g.excess !== 0),
  };
}

export interface DoubleEntry {
  scanId: string;
  bookingId: string;
  holderName: string;
  /** People who walked in beyond what the ticket allows. */
  excess: number;
  gate: string;
  staffName: string | null;
  scannedAt: string;
  /** The booking's other admissions: who else let it in, where and when. */
  others: { gate: string; staffName: string | null; scannedAt: string; persons: number; offline: boolean }[];
}

/** Every double entry of these slots, oldest first: never hidden, never merged away. */
export function listDoubleEntries(db: Db, slotIds: string[], limit = 200): DoubleEntry[] {
  if (slotIds.length === 0) return [];
  const rows = db
    .select({
      scanId: gateScans.scanId,
      bookingId: gateScans.bookingId,
      holderName: bookings.userName,
      excess: gateScans.excess,
      gate: gateScans.gate,
      staffName: users.name,
      scannedAt: gateScans.scannedAt,
      seq: gateScans.seq,
    })
    .from(gateScans)
    .innerJoin(bookings, eq(bookings.id, gateScans.bookingId))
    .leftJoin(users, eq(users.id, gateScans.staffUserId))
    .where(and(inArray(gateScans.slotId, slotIds), gt(gateScans.excess, 0)))
    .orderBy(asc(gateScans.seq))
    .limit(limit)
    .all();
  return rows.map(({ seq, bookingId, ...row }) => {
    const others = db
      .select({
        gate: gateScans.gate,
        staffName: users.name,
        scannedAt: gateScans.scannedAt,
        persons: gateScans.persons,
        offline: gateScans.offline,
      })
      .from(gateScans)
      .leftJoin(users, eq(users.id, gateScans.staffUserId))
      .where(
        and(
          eq(gateScans.bookingId, bookingId as string),
          eq(gateScans.kind, 'admit'),
          gt(gateScans.persons, 0),
        ),
      )
      .orderBy(asc(gateScans.seq))
      .all();
    return { ...row, bookingId: bookingId as string, others };
  });
}
