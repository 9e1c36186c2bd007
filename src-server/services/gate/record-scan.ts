import {
  alreadyUsedMessage,
  GATE_MESSAGES,
  type GateScanInput,
  notEnoughMessage,
  otherSlotMessage,
} from '../../../shared/gate-schemas.ts';
import { splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import {
  admitTicketSteps,
  attendeeDetail,
  loadGateTicketSteps,
  type TicketRef,
  ticketRefOf,
} from '../attendee-tickets/attendee-gate.ts';
import { recordBookingEventSteps } from '../bookings/booking-history.ts';
import { bookingLockKey } from '../bookings/booking-lock.ts';
import {
  admitMessage,
  findScanSteps,
  type GateBooking,
  type GateRefusal,
  type GateScanResult,
  type GateScanRow,
  lastAdmissionSteps,
  replayScanSteps,
  toGateTicket,
} from './gate-core.ts';

export interface GateCaller {
  eventId: string;
  staffUserId: string;
}

export type RecordScanInput = GateScanInput & { persons?: number };

/**
 * One scan at a gate while the device is online: the server decides and logs it. A scan id already in
 * the log answers what it did the first time (a resend after a dropped answer is never counted twice).
 * Admissions count through the conditional UPDATE, so 20 gates scanning one ticket at the same instant
 * admit at most its persons.
 */
export function recordScan(
  db: Db,
  appSecret: string,
  caller: GateCaller,
  input: RecordScanInput,
  now: Date,
): Promise<GateScanResult> {
  // A booking chosen by manual look-up is the booking as it is now; a QR may be one given away since.
  // An attendee's own QR (ADR 0046) is one ticket of the booking, with its own persons and check-in.
  // The signature is checked outside the transaction: verifying does not need the write lock.
  const ref = ticketRefOf(appSecret, input);
  return runnerFor(db).write((tx) => recordScanSteps(tx as WriteTx, ref, caller, input, now));
}

/**
 * `recordScan`'s transition, written once for both engines (ADR 0045): `ref` is the ticket the scan
 * names (`ticketRefOf`, null for a code that names none).
 */
export function* recordScanSteps(
  tx: WriteTx,
  ref: TicketRef | null,
  caller: GateCaller,
  input: RecordScanInput,
  now: Date,
): Steps<GateScanResult> {
  const { gateScans } = tablesOf(tx);
  const generation = ref?.generation ?? null;
  // Before the log is read: a resend racing its first send waits for it and then finds its row. A code
  // that names no booking has nothing to count, so only its resends take turns.
  yield* serialize(ref ? bookingLockKey(ref.bookingId) : `gate:scan:${input.scanId}`);
  const previous = yield* findScanSteps(tx, input.scanId);
  if (previous) return yield* replayFor(tx, previous, caller.eventId);

  const booking = ref ? yield* loadGateTicketSteps(tx, ref) : null;
  const ownBookingId = booking?.eventId === caller.eventId ? booking.bookingId : null;
  const log = (kind: 'admit' | 'refuse', persons: number, reason: string | null) =>
    changes(
      tx.insert(gateScans).values({
        scanId: input.scanId,
        eventId: caller.eventId,
        slotId: input.slotId,
        bookingId: ownBookingId,
        ticketId: ownBookingId ? (booking?.ticketId ?? null) : null,
        kind,
        persons,
        reason,
        gate: input.gate,
        deviceId: input.deviceId,
        staffUserId: caller.staffUserId,
        scannedAt: now.toISOString(),
        receivedAt: now.toISOString(),
      }),
    );
  function* refuse(reason: GateRefusal, message: string, shown: GateBooking | null): Steps<GateScanResult> {
    yield* log('refuse', 0, message);
    return {
      scanId: input.scanId,
      outcome: 'refuse',
      reason,
      message,
      ticket: shown && toGateTicket(shown),
    };
  }

  const check = checkBooking(booking, caller.eventId, input.slotId, generation);
  // Another event's booking is not this event's business: not shown, not linked in this event's log.
  const foreign = check?.reason === 'invalid' || check?.reason === 'other-event';
  if (check) return yield* refuse(check.reason, check.message, foreign ? null : booking);
  const b = booking as GateBooking;
  const remaining = b.allowed - b.admitted;
  if (remaining <= 0) return yield* refuse('used', yield* usedMessageSteps(tx, b), b);
  // A group ticket asks how many even for its last entry: a gate's re-read never lets someone in
  // without staff's tap (issue 35).
  if (input.persons === undefined && b.allowed > 1)
    return {
      scanId: input.scanId,
      outcome: 'ask',
      remaining,
      message: `${remaining} of ${b.allowed} entries left: how many enter now?`,
      ticket: toGateTicket(b),
    };
  const persons = input.persons ?? 1;
  if (!(yield* admitTicketSteps(tx, b, persons, now))) {
    const fresh = (yield* loadGateTicketSteps(tx, ref as TicketRef)) as GateBooking;
    const left = fresh.allowed - fresh.admitted;
    return left <= 0
      ? yield* refuse('used', yield* usedMessageSteps(tx, fresh), fresh)
      : yield* refuse('not-enough', notEnoughMessage(left, fresh.allowed), fresh);
  }
  yield* log('admit', persons, null);
  yield* recordBookingEventSteps(tx, {
    bookingId: b.bookingId,
    kind: 'checked_in',
    actor: 'gate',
    actorUserId: caller.staffUserId,
    at: now,
    details: { persons, gate: input.gate, offline: false, ...attendeeDetail(b) },
  });
  const ticket = toGateTicket((yield* loadGateTicketSteps(tx, ref as TicketRef)) as GateBooking);
  return {
    scanId: input.scanId,
    outcome: 'admit',
    persons,
    excess: 0,
    message: admitMessage(persons, ticket),
    ticket,
  };
}

/** Why a booking cannot be admitted at this event's slot at all, or null when it can be. */
export function checkBooking(
  booking: GateBooking | null,
  eventId: string,
  slotId: string,
  /** The scanned QR's token generation; null for a booking chosen by look-up. */
  generation: number | null = null,
): { reason: GateRefusal; message: string } | null {
  if (!booking) return { reason: 'invalid', message: GATE_MESSAGES.invalid };
  // Another event's ticket says so and nothing more: the staff of one event learn nothing of another's.
  if (booking.eventId !== eventId) return { reason: 'other-event', message: GATE_MESSAGES.otherEvent };
  if (booking.slotId !== slotId)
    return { reason: 'other-slot', message: otherSlotMessage(booking.slotStart) };
  // The QR the sender kept after giving the booking away (ADR 0025): the recipient holds the new one.
  if (generation !== null && generation < booking.transferCount)
    return { reason: 'transferred', message: GATE_MESSAGES.transferred };
  if (booking.cancelled) return { reason: 'cancelled', message: GATE_MESSAGES.cancelled };
  // Every ticket of the booking has its own QR (ADR 0046): the booking's QR has nobody left to admit.
  if (booking.hasAttendeeTickets && booking.allowed === 0)
    return { reason: 'per-attendee', message: GATE_MESSAGES.perAttendee };
  return null;
}

function* usedMessageSteps(tx: WriteTx, booking: GateBooking): Steps<string> {
  const last = yield* lastAdmissionSteps(tx, booking.bookingId, booking.ticketId);
  // Check-ins made before the scan log existed have only the booking's own time.
  return alreadyUsedMessage(last?.gate ?? null, last?.scannedAt ?? booking.lastCheckInAt);
}

function* replayFor(tx: WriteTx, scan: GateScanRow, eventId: string): Steps<GateScanResult> {
  // A scan id of another event's log is not this caller's to read.
  if (scan.eventId !== eventId)
    return {
      scanId: scan.scanId,
      outcome: 'refuse',
      reason: 'repeat',
      message: GATE_MESSAGES.invalid,
      ticket: null,
    };
  const replay = yield* replayScanSteps(tx, scan);
  // A resent scan of an attendee's own QR (ADR 0046) answers with that attendee's ticket.
  if (!scan.ticketId || !scan.bookingId || !replay.ticket) return replay;
  const ticket = yield* loadGateTicketSteps(tx, { generation: null, ...splitGateTicketId(scan.ticketId) });
  if (!ticket) return replay;
  const shown = toGateTicket(ticket);
  return replay.outcome === 'admit'
    ? { ...replay, ticket: shown, message: admitMessage(replay.persons + replay.excess, shown) }
    : { ...replay, ticket: shown };
}
