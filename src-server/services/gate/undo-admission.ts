import { and, eq, isNull, sql } from 'drizzle-orm';
import type { GateUndoInput } from '../../../shared/gate-schemas.ts';
import { splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, rows, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { loadGateTicketSteps, takeOffAttendeeInSteps } from '../attendee-tickets/attendee-gate.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import { findScanSteps, type GateBooking, type GateTicket, toGateTicket } from './gate-core.ts';
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
  return runnerFor(db).write((tx) => undoAdmissionSteps(tx as WriteTx, caller, input, now));
}

/** `undoAdmission`'s transition, written once for both engines (ADR 0045). */
export function* undoAdmissionSteps(
  tx: WriteTx,
  caller: GateCaller,
  input: GateUndoInput,
  now: Date,
): Steps<{ undone: number; ticket: GateTicket }> {
  const { bookings, gateScans } = tablesOf(tx);
  // The admission's row never changes once logged, so it can name the booking to lock.
  const admission = yield* findScanSteps(tx, input.scanId);
  if (
    !admission ||
    admission.eventId !== caller.eventId ||
    admission.kind !== 'admit' ||
    !admission.bookingId
  )
    throw notFound(UNDO_MESSAGES.notFound);
  const bookingId = admission.bookingId;
  // Two undos of one admission, or an undo beside a scan, each read the history and then write on it.
  yield* serialize(bookingLockKey(bookingId));
  const repeat = yield* findScanSteps(tx, input.undoId);
  // An admission on an attendee's own QR (ADR 0046) is undone on that ticket and its own admissions.
  const ref = { generation: null, ...splitGateTicketId(admission.ticketId ?? bookingId) };
  const ticketNow = function* (): Steps<GateTicket> {
    return toGateTicket((yield* loadGateTicketSteps(tx, ref)) as GateBooking);
  };
  if (repeat?.kind === 'undo' && repeat.undoesScanId === input.scanId)
    return { undone: repeat.persons, ticket: yield* ticketNow() };
  const history = yield* rows(
    tx
      .select({
        scanId: gateScans.scanId,
        kind: gateScans.kind,
        persons: gateScans.persons,
        excess: gateScans.excess,
        undoesScanId: gateScans.undoesScanId,
      })
      .from(gateScans)
      .where(
        and(
          eq(gateScans.bookingId, bookingId),
          admission.ticketId ? eq(gateScans.ticketId, admission.ticketId) : isNull(gateScans.ticketId),
        ),
      ),
  );
  if (history.some((r) => r.kind === 'undo' && r.undoesScanId === input.scanId))
    throw conflict(UNDO_MESSAGES.already);
  const persons = personsToTakeOff(
    (yield* loadGateTicketSteps(tx, ref)) as GateBooking,
    history,
    input.scanId,
  );
  if (ref.attendee) yield* takeOffAttendeeInSteps(tx, bookingId, ref.attendee, persons);
  yield* changes(
    tx
      .update(bookings)
      .set({
        numberOfUserCheckedIn: sql`${bookings.numberOfUserCheckedIn} - ${persons}`,
        isCheckIn: sql`${bookings.numberOfUserCheckedIn} - ${persons} > 0`,
      })
      .where(and(eq(bookings.id, bookingId), sql`${bookings.numberOfUserCheckedIn} >= ${persons}`)),
  );
  yield* changes(
    tx.insert(gateScans).values({
      scanId: input.undoId,
      eventId: caller.eventId,
      slotId: admission.slotId,
      bookingId,
      ticketId: admission.ticketId,
      kind: 'undo',
      persons,
      reason: input.reason,
      undoesScanId: input.scanId,
      gate: input.gate,
      deviceId: input.deviceId,
      staffUserId: caller.staffUserId,
      scannedAt: now.toISOString(),
      receivedAt: now.toISOString(),
    }),
  );
  yield* recordBookingEventSteps(tx, {
    bookingId,
    kind: 'check_in_undone',
    actor: 'gate',
    actorUserId: caller.staffUserId,
    at: now,
    details: { persons, gate: input.gate, reason: input.reason },
  });
  return { undone: persons, ticket: yield* ticketNow() };
}

/**
 * How many people an undo takes off the booking's count. Not simply the admission's own: after a merge,
 * people another device let in beyond the ticket (excess) are inside too, so the count becomes what the
 * admissions left standing account for (their counted people and their excess), capped at what the
 * ticket allows, plus any check-ins made before the scan log existed. Undoing an admission that was all
 * excess takes nobody off; undoing the one that was counted lets the other device's people take its place.
 */
function personsToTakeOff(
  booking: GateBooking,
  history: { scanId: string; kind: string; persons: number; excess: number; undoesScanId: string | null }[],
  scanId: string,
): number {
  const undone = new Set(
    history.flatMap((r) => (r.kind === 'undo' && r.undoesScanId ? [r.undoesScanId] : [])),
  );
  undone.add(scanId);
  let logged = 0;
  let standing = 0;
  for (const r of history) {
    if (r.kind === 'undo') logged -= r.persons;
    if (r.kind !== 'admit') continue;
    logged += r.persons;
    if (!undone.has(r.scanId)) standing += r.persons + r.excess;
  }
  const beforeTheLog = Math.max(0, booking.admitted - logged);
  const next = Math.min(booking.allowed, beforeTheLog + standing);
  return Math.max(0, booking.admitted - next);
}
