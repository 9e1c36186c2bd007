import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

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
  return runSync(listCheckInsSteps(db, bookingId));
}

/** `listCheckIns` written once for both engines (ADR 0045), for the booking page's one snapshot. */
export function* listCheckInsSteps(db: DbOrTx, bookingId: string): Steps<CheckInRecord[]> {
  return (yield* readAdmissionLogSteps(db, bookingId)).map(
    ({ scanId: _s, undoesScanId: _u, ticketId: _t, ...r }) =>
      r.kind === 'undo' ? r : { ...r, reason: null },
  );
}

/**
 * A booking's admit and undo rows of the scan log, oldest first, with the scan ids an undo points at:
 * the one read behind the booking's page (listCheckIns) and the gate's look-up history
 * (list-ticket-admissions.ts).
 */
export function readAdmissionLog(db: Db, bookingId: string): AdmissionLogRow[] {
  return runSync(readAdmissionLogSteps(db, bookingId));
}

type AdmissionLogRow = Omit<CheckInRecord, 'kind'> & {
  kind: 'admit' | 'undo';
  scanId: string;
  undoesScanId: string | null;
  /** An attendee's own ticket (ADR 0046); null: the booking's QR or a look-up. */
  ticketId: string | null;
};

/** `readAdmissionLog` written once for both engines (ADR 0045). */
export function* readAdmissionLogSteps(db: DbOrTx, bookingId: string): Steps<AdmissionLogRow[]> {
  const { gateScans, users } = tablesOf(db);
  return (yield* rows(
    db
      .select({
        scanId: gateScans.scanId,
        undoesScanId: gateScans.undoesScanId,
        kind: gateScans.kind,
        persons: gateScans.persons,
        excess: gateScans.excess,
        gate: gateScans.gate,
        staffName: users.name,
        scannedAt: gateScans.scannedAt,
        offline: gateScans.offline,
        reason: gateScans.reason,
        ticketId: gateScans.ticketId,
      })
      .from(gateScans)
      .leftJoin(users, eq(users.id, gateScans.staffUserId))
      .where(and(eq(gateScans.bookingId, bookingId), inArray(gateScans.kind, ['admit', 'undo'])))
      .orderBy(asc(gateScans.seq)),
  )) as AdmissionLogRow[];
}
