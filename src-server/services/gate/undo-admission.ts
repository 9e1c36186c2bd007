import { and, eq, sql } from 'drizzle-orm';
import type { GateUndoInput } from '../../../shared/gate-schemas.ts';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { gateScans } from '../../db/schema/gate.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { findScan, type GateBooking, type GateTicket, loadGateBooking, toGateTicket } from './gate-core.ts';
import type { GateCaller } from './record-scan.ts';

export const UNDO_MESSAGES = {
  notFound: 'No admission with that scan at this event',
  already: 'That admission was already undone',
} as const;

/**
 * Takes an admission back (staff scanned the wrong ticket, or a person turned round): logged as an undo
 * row with the reason, and the people come off the booking again. The log keeps both rows; nothing is
 * erased. An undo id already in the log answers as before (a resend).
 */
export function undoAdmission(
  db: Db,
  caller: GateCaller,
  input: GateUndoInput,
  now: Date,
): Promise<{ undone: number; ticket: GateTicket }> {
  return writeTransaction(db, (tx) => {
    const repeat = findScan(tx, input.undoId);
    const admission = findScan(tx, input.scanId);
    if (
      !admission ||
      admission.eventId !== caller.eventId ||
      admission.kind !== 'admit' ||
      !admission.bookingId
    )
      throw notFound(UNDO_MESSAGES.notFound);
    const bookingId = admission.bookingId;
    if (repeat?.kind === 'undo' && repeat.undoesScanId === input.scanId)
      return { undone: repeat.persons, ticket: toGateTicket(loadGateBooking(tx, bookingId) as GateBooking) };
    const earlier = tx
      .select({ seq: gateScans.seq })
      .from(gateScans)
      .where(and(eq(gateScans.bookingId, bookingId), eq(gateScans.undoesScanId, input.scanId)))
      .get();
    if (earlier || admission.persons === 0) throw conflict(UNDO_MESSAGES.already);
    const persons = admission.persons;
    tx.update(bookings)
      .set({
        numberOfUserCheckedIn: sql`${bookings.numberOfUserCheckedIn} - ${persons}`,
        isCheckIn: sql`${bookings.numberOfUserCheckedIn} - ${persons} > 0`,
      })
      .where(and(eq(bookings.id, bookingId), sql`${bookings.numberOfUserCheckedIn} >= ${persons}`))
      .run();
    tx.insert(gateScans)
      .values({
        scanId: input.undoId,
        eventId: caller.eventId,
        slotId: admission.slotId,
        bookingId,
        kind: 'undo',
        persons,
        reason: input.reason,
        undoesScanId: input.scanId,
        gate: input.gate,
        deviceId: input.deviceId,
        staffUserId: caller.staffUserId,
        scannedAt: now.toISOString(),
        receivedAt: now.toISOString(),
      })
      .run();
    return { undone: persons, ticket: toGateTicket(loadGateBooking(tx, bookingId) as GateBooking) };
  });
}
