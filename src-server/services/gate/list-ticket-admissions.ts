import { and, eq } from 'drizzle-orm';
import { splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { readAdmissionLogSteps } from './list-check-ins.ts';

export interface TicketAdmission {
  /** What `gate.undo` takes back. */
  scanId: string;
  persons: number;
  /** People let in beyond the ticket (a double entry). */
  excess: number;
  gate: string;
  staffName: string | null;
  scannedAt: string;
  offline: boolean;
  /** Who took it back, when and why; null while it stands. */
  undone: { staffName: string | null; at: string; reason: string | null } | null;
}

export const HISTORY_MESSAGES = { notFound: 'No such booking at this event' } as const;

/**
 * One booking's admissions at the gate, oldest first, each with its undo if it was taken back: the
 * look-up's history, from which staff undo a chosen admission even after the device reloaded (issue 35).
 * A booking of another event answers like one that does not exist. Written once for both engines (ADR 0045).
 */
export function listTicketAdmissions(
  db: DbOrTx,
  eventId: string,
  ticketId: string,
): Promise<TicketAdmission[]> {
  return runStatements(db, (d) => listTicketAdmissionsSteps(d, eventId, ticketId));
}

function* listTicketAdmissionsSteps(db: DbOrTx, eventId: string, ticketId: string): Steps<TicketAdmission[]> {
  const { bookings } = tablesOf(db);
  // An attendee's own ticket (ADR 0046, `{bookingId}+{typeId}+{position}`): its admissions only.
  const { bookingId, attendee } = splitGateTicketId(ticketId);
  const booking = yield* row(
    db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), eq(bookings.eventId, eventId))),
  );
  if (!booking) throw notFound(HISTORY_MESSAGES.notFound);
  const rows = (yield* readAdmissionLogSteps(db, bookingId)).filter(
    (r) => !attendee || r.ticketId === ticketId,
  );
  const undos = new Map(rows.filter((r) => r.kind === 'undo').map((r) => [r.undoesScanId, r]));
  return rows
    .filter((r) => r.kind === 'admit')
    .map((r) => {
      const undo = undos.get(r.scanId);
      return {
        scanId: r.scanId,
        persons: r.persons,
        excess: r.excess,
        gate: r.gate,
        staffName: r.staffName,
        scannedAt: r.scannedAt,
        offline: r.offline,
        undone: undo ? { staffName: undo.staffName, at: undo.scannedAt, reason: undo.reason } : null,
      };
    });
}
