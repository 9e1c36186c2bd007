import { and, eq, isNull, sql } from 'drizzle-orm';
import { gateTicketId, splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { Db } from '../../db/client.ts';
import { attendeeTickets } from '../../db/schema/attendee-tickets.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { bookingAttendees } from '../../db/schema/questions.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { admitConditionally, type GateBooking, loadGateBooking } from '../gate/gate-core.ts';
import { readTicketToken } from '../tickets/ticket-token.ts';

type Reader = Db | WriteTx;

/** What a scan names: a booking (its QR, or chosen by look-up) or one attendee's ticket of it (ADR 0046). */
export interface TicketRef {
  bookingId: string;
  /** The scanned QR's token generation; null for a ticket chosen by look-up. */
  generation: number | null;
  attendee?: { ticketTypeId: string; position: number };
}

/**
 * The ticket a scan names: a signed token (either kind), or a gate ticket id the look-up or the device's
 * list gave (a booking id, or `{bookingId}+{typeId}+{position}` for an attendee). Null for a forged code.
 */
export function ticketRefOf(
  appSecret: string,
  code: { token?: string | undefined; bookingId?: string | undefined },
): TicketRef | null {
  if (code.token) {
    const read = readTicketToken(appSecret, code.token.trim());
    return read ? { ...read, generation: read.generation } : null;
  }
  if (!code.bookingId) return null;
  return { ...splitGateTicketId(code.bookingId.trim()), generation: null };
}

/**
 * The ticket as the gate decides on it. A booking without attendee tickets is `loadGateBooking` plus one
 * primary-key probe of `attendee_tickets` (no row). An attendee's ticket has its own persons, count, name
 * and "cancelled" (voided by a part cancellation); the booking's own QR of a booking with attendee tickets
 * admits only the persons of its other tickets. Null when the booking, or that attendee's ticket, is none.
 */
export function loadGateTicket(db: Reader, ref: TicketRef): GateBooking | null {
  const booking = loadGateBooking(db, ref.bookingId);
  if (!booking) return null;
  const rows = db
    .select({
      ticketTypeId: attendeeTickets.ticketTypeId,
      position: attendeeTickets.position,
      allowed: attendeeTickets.allowed,
      admitted: attendeeTickets.admitted,
      lastCheckInAt: attendeeTickets.lastCheckInAt,
      voidedAt: attendeeTickets.voidedAt,
    })
    .from(attendeeTickets)
    .where(eq(attendeeTickets.bookingId, ref.bookingId))
    .all();
  const wanted = ref.attendee;
  if (!wanted) {
    if (rows.length === 0) return booking;
    let allowed = 0;
    let admitted = 0;
    for (const r of rows) {
      if (!r.voidedAt) allowed += r.allowed;
      admitted += r.admitted;
    }
    return {
      ...booking,
      allowed: Math.max(0, booking.allowed - allowed),
      admitted: Math.max(0, booking.admitted - admitted),
      hasAttendeeTickets: true,
    };
  }
  const row = rows.find((r) => r.ticketTypeId === wanted.ticketTypeId && r.position === wanted.position);
  if (!row) return null;
  const extra = db
    .select({ lines: bookings.ticketTypes, name: bookingAttendees.name })
    .from(bookings)
    .leftJoin(
      bookingAttendees,
      and(
        eq(bookingAttendees.bookingId, bookings.id),
        eq(bookingAttendees.ticketTypeId, wanted.ticketTypeId),
        eq(bookingAttendees.position, wanted.position),
      ),
    )
    .where(eq(bookings.id, ref.bookingId))
    .get();
  const line = extra?.lines.find((l) => l.id === wanted.ticketTypeId);
  return {
    ...booking,
    ticketId: gateTicketId(booking.bookingId, wanted),
    attendee: wanted,
    holderName: extra?.name?.trim() || booking.holderName,
    typeName: line?.name ?? booking.typeName,
    allowed: row.allowed,
    admitted: row.admitted,
    cancelled: booking.cancelled || row.voidedAt !== null,
    lastCheckInAt: row.lastCheckInAt,
  };
}

/**
 * Counts `persons` on the ticket if it has them left: an attendee's ticket through its own conditional
 * UPDATE and then the booking's (which holds every person of the booking, for the counters); the booking's
 * QR of a booking with attendee tickets within the persons of its other tickets. The caller loaded `ticket`
 * in the same write transaction, so the checks here and the UPDATEs see one state.
 */
export function admitTicket(tx: WriteTx, ticket: GateBooking, persons: number, now: Date): boolean {
  if (!ticket.attendee && !ticket.hasAttendeeTickets)
    return admitConditionally(tx, ticket.bookingId, persons, now);
  if (persons > ticket.allowed - ticket.admitted) return false;
  if (ticket.attendee) {
    const counted =
      tx
        .update(attendeeTickets)
        .set({ admitted: sql`${attendeeTickets.admitted} + ${persons}`, lastCheckInAt: now.toISOString() })
        .where(
          and(
            attendeeRow(ticket.bookingId, ticket.attendee),
            isNull(attendeeTickets.voidedAt),
            sql`${attendeeTickets.admitted} + ${persons} <= ${attendeeTickets.allowed}`,
          ),
        )
        .run().changes === 1;
    if (!counted) return false;
  }
  // The booking's total covers every attendee's persons: this holds whenever the ticket's own check did.
  if (!admitConditionally(tx, ticket.bookingId, persons, now))
    throw new Error(`Booking ${ticket.bookingId} cannot count an admission its ticket allowed`);
  return true;
}

/** Takes `persons` off an attendee's ticket again (an undo); the caller takes them off the booking. */
export function takeOffAttendeeIn(
  tx: WriteTx,
  bookingId: string,
  attendee: { ticketTypeId: string; position: number },
  persons: number,
): void {
  tx.update(attendeeTickets)
    .set({
      admitted: sql`case when ${attendeeTickets.admitted} >= ${persons} then ${attendeeTickets.admitted} - ${persons} else 0 end`,
    })
    .where(attendeeRow(bookingId, attendee))
    .run();
}

const attendeeRow = (bookingId: string, a: { ticketTypeId: string; position: number }) =>
  and(
    eq(attendeeTickets.bookingId, bookingId),
    eq(attendeeTickets.ticketTypeId, a.ticketTypeId),
    eq(attendeeTickets.position, a.position),
  );

/** What the order history notes of an attendee's check-in or undo: which ticket it was. */
export function attendeeDetail(ticket: {
  attendee?: { ticketTypeId: string; position: number };
  holderName: string;
}): { attendeePosition?: number; attendeeName?: string } {
  return ticket.attendee
    ? { attendeePosition: ticket.attendee.position, attendeeName: ticket.holderName }
    : {};
}
