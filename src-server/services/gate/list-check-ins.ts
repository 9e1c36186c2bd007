import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { gateScans } from '../../db/schema/gate.ts';

export interface CheckInRecord {
  kind: 'admit' | 'undo';
  /** People counted (admit) or taken back (undo). */
  persons: number;
  /** People let in beyond the ticket (a double entry). */
  excess: number;
  gate: string;
  staffName: string | null;
  scannedAt: string;
  offline: boolean;
  /** The undo's reason. */
  reason: string | null;
}

/** A booking's admissions and undos from the scan log, oldest first (for the booking's page). */
export function listCheckIns(db: Db, bookingId: string): CheckInRecord[] {
  return db
    .select({
      kind: gateScans.kind,
      persons: gateScans.persons,
      excess: gateScans.excess,
      gate: gateScans.gate,
      staffName: users.name,
      scannedAt: gateScans.scannedAt,
      offline: gateScans.offline,
      reason: gateScans.reason,
    })
    .from(gateScans)
    .leftJoin(users, eq(users.id, gateScans.staffUserId))
    .where(eq(gateScans.bookingId, bookingId))
    .orderBy(asc(gateScans.seq))
    .all()
    .filter((r): r is CheckInRecord => r.kind === 'admit' || r.kind === 'undo')
    .map((r) => (r.kind === 'undo' ? r : { ...r, reason: null }));
}
