import { and, eq } from 'drizzle-orm';
import { splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { notFound } from '../../errors.ts';
import { readAdmissionLog } from './list-check-ins.ts';

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
 * A booking of another event answers like one that does not exist.
 */
export function listTicketAdmissions(db: Db, eventId: string, ticketId: string): TicketAdmission[] {
  // An attendee's own ticket (ADR 0046, `{bookingId}+{typeId}+{position}`): its admissions only.
  const { bookingId, attendee } = splitGateTicketId(ticketId);
  const booking = db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.eventId, eventId)))
    .get();
  if (!booking) throw notFound(HISTORY_MESSAGES.notFound);
  const rows = readAdmissionLog(db, bookingId).filter((r) => !attendee || r.ticketId === ticketId);
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
