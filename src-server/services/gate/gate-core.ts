import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { gateScans } from '../../db/schema/gate.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

/** What a gate screen shows about a ticket. */
export interface GateTicket {
  bookingId: string;
  /** An attendee's own ticket (ADR 0046): `{bookingId}+{typeId}+{position}`; absent for the booking's QR. */
  ticketId?: string;
  holderName: string;
  typeName: string;
  /** People the booking admits in all. */
  allowed: number;
  /** People admitted so far. */
  admitted: number;
}

export type GateRefusal =
  | 'invalid'
  | 'other-event'
  | 'other-slot'
  | 'cancelled'
  | 'transferred'
  | 'used'
  | 'not-enough'
  | 'per-attendee';

export type GateScanResult =
  | { scanId: string; outcome: 'admit'; persons: number; excess: number; message: string; ticket: GateTicket }
  /** Several entries are left: the screen asks how many walk in now and sends the scan again. */
  | { scanId: string; outcome: 'ask'; remaining: number; message: string; ticket: GateTicket }
  | {
      scanId: string;
      outcome: 'refuse';
      reason: GateRefusal | 'repeat';
      message: string;
      ticket: GateTicket | null;
    };

type Reader = Db | WriteTx;

export interface GateBooking extends GateTicket {
  eventId: string;
  slotId: string;
  slotStart: string;
  cancelled: boolean;
  lastCheckInAt: string | null;
  /** The current token generation (ADR 0025): a QR of an older one was given away. */
  transferCount: number;
  /** Set when this is one attendee's ticket of the booking (ADR 0046), not the booking's QR. */
  attendee?: { ticketTypeId: string; position: number };
  /** The booking has attendee tickets: its own QR admits only the persons of its other tickets. */
  hasAttendeeTickets?: boolean;
}

/** A booking as the gate decides on it (its QR's persons and count), or null when there is none. */
export function* loadGateBookingSteps(db: Reader, bookingId: string): Steps<GateBooking | null> {
  const { bookings } = tablesOf(db);
  const found = yield* row(
    db
      .select({
        bookingId: bookings.id,
        eventId: bookings.eventId,
        slotId: bookings.slotId,
        slotStart: bookings.ticketSlot,
        holderName: bookings.userName,
        ticketType: bookings.ticketType,
        allowed: bookings.totalUserAllowed,
        admitted: bookings.numberOfUserCheckedIn,
        status: bookings.status,
        lastCheckInAt: bookings.lastCheckInAt,
        transferCount: bookings.transferCount,
      })
      .from(bookings)
      .where(eq(bookings.id, bookingId)),
  );
  if (!found) return null;
  const { ticketType, status, ...rest } = found;
  return { ...rest, typeName: ticketType.name, cancelled: status !== 'confirmed' };
}

export const toGateTicket = (b: GateBooking): GateTicket => ({
  bookingId: b.bookingId,
  ...(b.ticketId ? { ticketId: b.ticketId } : {}),
  holderName: b.holderName,
  typeName: b.typeName,
  allowed: b.allowed,
  admitted: b.admitted,
});

/**
 * Counts `persons` more people on a booking if that stays within what it allows: the one conditional
 * UPDATE that keeps any number of gates from admitting a ticket beyond its persons (on PostgreSQL too:
 * the UPDATE waits for the row and checks the count again on the row as committed).
 */
export function* admitConditionallySteps(
  tx: WriteTx,
  bookingId: string,
  persons: number,
  now: Date,
): Steps<boolean> {
  const { bookings } = tablesOf(tx);
  const changed = yield* changes(
    tx
      .update(bookings)
      .set({
        numberOfUserCheckedIn: sql`${bookings.numberOfUserCheckedIn} + ${persons}`,
        isCheckIn: true,
        lastCheckInAt: now.toISOString(),
      })
      .where(
        and(
          eq(bookings.id, bookingId),
          eq(bookings.status, 'confirmed'),
          sql`${bookings.numberOfUserCheckedIn} + ${persons} <= ${bookings.totalUserAllowed}`,
        ),
      ),
  );
  return changed === 1;
}

/** Where and when the booking's latest admission was (for "Already used at North gate, 19:04"). */
export function* lastAdmissionSteps(
  db: Reader,
  bookingId: string,
  /** An attendee's ticket (ADR 0046): its own admissions; absent: the booking QR's. */
  ticketId?: string,
): Steps<{ gate: string; scannedAt: string } | null> {
  const { gateScans } = tablesOf(db);
  const last = yield* row(
    db
      .select({ gate: gateScans.gate, scannedAt: gateScans.scannedAt })
      .from(gateScans)
      .where(
        and(
          eq(gateScans.bookingId, bookingId),
          eq(gateScans.kind, 'admit'),
          ticketId ? eq(gateScans.ticketId, ticketId) : isNull(gateScans.ticketId),
        ),
      )
      .orderBy(desc(gateScans.seq))
      .limit(1),
  );
  return last ?? null;
}

export type GateScanRow = typeof gateScans.$inferSelect;

export function* findScanSteps(db: Reader, scanId: string): Steps<GateScanRow | null> {
  const { gateScans } = tablesOf(db);
  return (yield* row(db.select().from(gateScans).where(eq(gateScans.scanId, scanId)))) ?? null;
}

/** The answer to a scan already in the log (a resend): what it did, never a second count. */
export function* replayScanSteps(db: Reader, scan: GateScanRow): Steps<GateScanResult> {
  const booking = scan.bookingId ? yield* loadGateBookingSteps(db, scan.bookingId) : null;
  const ticket = booking ? toGateTicket(booking) : null;
  if (scan.kind === 'admit' && ticket)
    return {
      scanId: scan.scanId,
      outcome: 'admit',
      persons: scan.persons,
      excess: scan.excess,
      message: admitMessage(scan.persons + scan.excess, ticket),
      ticket,
    };
  return {
    scanId: scan.scanId,
    outcome: 'refuse',
    reason: 'repeat',
    message: scan.reason ?? 'Refused',
    ticket,
  };
}

export const admitMessage = (persons: number, ticket: GateTicket) =>
  `ADMIT ${persons}: ${ticket.admitted} of ${ticket.allowed} in`;
