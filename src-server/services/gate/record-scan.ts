import {
  alreadyUsedMessage,
  GATE_MESSAGES,
  type GateScanInput,
  notEnoughMessage,
  otherSlotMessage,
} from '../../../shared/gate-schemas.ts';
import { splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { Db } from '../../db/client.ts';
import { gateScans } from '../../db/schema/gate.ts';
import { type WriteTx, writeTransaction } from '../../db/write-transaction.ts';
import {
  admitTicket,
  attendeeDetail,
  loadGateTicket,
  type TicketRef,
  ticketRefOf,
} from '../attendee-tickets/attendee-gate.ts';
import { recordBookingEvent } from '../bookings/booking-history.ts';
import {
  admitMessage,
  findScan,
  type GateBooking,
  type GateRefusal,
  type GateScanResult,
  lastAdmission,
  replayScan,
  toGateTicket,
} from './gate-core.ts';

export interface GateCaller {
  eventId: string;
  staffUserId: string;
}

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
  input: GateScanInput & { persons?: number },
  now: Date,
): Promise<GateScanResult> {
  // A booking chosen by manual look-up is the booking as it is now; a QR may be one given away since.
  // An attendee's own QR (ADR 0046) is one ticket of the booking, with its own persons and check-in.
  const ref = ticketRefOf(appSecret, input);
  const generation = ref?.generation ?? null;
  return writeTransaction(db, (tx) => {
    const previous = findScan(tx, input.scanId);
    if (previous) return replayFor(tx, previous, caller.eventId);

    const booking = ref ? loadGateTicket(tx, ref) : null;
    const ownBookingId = booking?.eventId === caller.eventId ? booking.bookingId : null;
    const log = (kind: 'admit' | 'refuse', persons: number, reason: string | null) =>
      tx
        .insert(gateScans)
        .values({
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
        })
        .run();
    const refuse = (reason: GateRefusal, message: string, shown: GateBooking | null): GateScanResult => {
      log('refuse', 0, message);
      return {
        scanId: input.scanId,
        outcome: 'refuse',
        reason,
        message,
        ticket: shown && toGateTicket(shown),
      };
    };

    const check = checkBooking(booking, caller.eventId, input.slotId, generation);
    // Another event's booking is not this event's business: not shown, not linked in this event's log.
    const foreign = check?.reason === 'invalid' || check?.reason === 'other-event';
    if (check) return refuse(check.reason, check.message, foreign ? null : booking);
    const b = booking as GateBooking;
    const remaining = b.allowed - b.admitted;
    if (remaining <= 0) return refuse('used', usedMessage(tx, b), b);
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
    if (!admitTicket(tx, b, persons, now)) {
      const fresh = loadGateTicket(tx, ref as TicketRef) as GateBooking;
      const left = fresh.allowed - fresh.admitted;
      return left <= 0
        ? refuse('used', usedMessage(tx, fresh), fresh)
        : refuse('not-enough', notEnoughMessage(left, fresh.allowed), fresh);
    }
    log('admit', persons, null);
    recordBookingEvent(tx, {
      bookingId: b.bookingId,
      kind: 'checked_in',
      actor: 'gate',
      actorUserId: caller.staffUserId,
      at: now,
      details: { persons, gate: input.gate, offline: false, ...attendeeDetail(b) },
    });
    const ticket = toGateTicket(loadGateTicket(tx, ref as TicketRef) as GateBooking);
    return {
      scanId: input.scanId,
      outcome: 'admit',
      persons,
      excess: 0,
      message: admitMessage(persons, ticket),
      ticket,
    };
  });
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

export function usedMessage(tx: WriteTx | Db, booking: GateBooking): string {
  const last = lastAdmission(tx, booking.bookingId, booking.ticketId);
  // Check-ins made before the scan log existed have only the booking's own time.
  return alreadyUsedMessage(last?.gate ?? null, last?.scannedAt ?? booking.lastCheckInAt);
}

function replayFor(tx: WriteTx, row: NonNullable<ReturnType<typeof findScan>>, eventId: string) {
  // A scan id of another event's log is not this caller's to read.
  if (row.eventId !== eventId)
    return {
      scanId: row.scanId,
      outcome: 'refuse',
      reason: 'repeat',
      message: GATE_MESSAGES.invalid,
      ticket: null,
    } satisfies GateScanResult;
  const replay = replayScan(tx, row);
  // A resent scan of an attendee's own QR (ADR 0046) answers with that attendee's ticket.
  if (!row.ticketId || !row.bookingId || !replay.ticket) return replay;
  const ticket = loadGateTicket(tx, { generation: null, ...splitGateTicketId(row.ticketId) });
  if (!ticket) return replay;
  const shown = toGateTicket(ticket);
  return replay.outcome === 'admit'
    ? { ...replay, ticket: shown, message: admitMessage(replay.persons + replay.excess, shown) }
    : { ...replay, ticket: shown };
}
