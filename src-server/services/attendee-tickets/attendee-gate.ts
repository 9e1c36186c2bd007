import { and, eq, isNull, sql } from 'drizzle-orm';
import { gateTicketId, splitGateTicketId } from '../../../shared/ticket-token-format.ts';
import type { Db } from '../../db/client.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { admitConditionallySteps, type GateBooking, loadGateBookingSteps } from '../gate/gate-core.ts';
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
export function* loadGateTicketSteps(db: Reader, ref: TicketRef): Steps<GateBooking | null> {
  const { attendeeTickets, bookings, bookingAttendees } = tablesOf(db);
  const booking = yield* loadGateBookingSteps(db, ref.bookingId);
  if (!booking) return null;
  const tickets = yield* rows(
    db
      .select({
        ticketTypeId: attendeeTickets.ticketTypeId,
        position: attendeeTickets.position,
        allowed: attendeeTickets.allowed,
        admitted: attendeeTickets.admitted,
        lastCheckInAt: attendeeTickets.lastCheckInAt,
        voidedAt: attendeeTickets.voidedAt,
      })
      .from(attendeeTickets)
      .where(eq(attendeeTickets.bookingId, ref.bookingId)),
  );
  const wanted = ref.attendee;
  if (!wanted) {
    if (tickets.length === 0) return booking;
    let allowed = 0;
    let admitted = 0;
    for (const r of tickets) {
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
  const own = tickets.find((r) => r.ticketTypeId === wanted.ticketTypeId && r.position === wanted.position);
  if (!own) return null;
  const extra = yield* row(
    db
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
      .where(eq(bookings.id, ref.bookingId)),
  );
  const line = extra?.lines.find((l) => l.id === wanted.ticketTypeId);
  return {
    ...booking,
    ticketId: gateTicketId(booking.bookingId, wanted),
    attendee: wanted,
    holderName: extra?.name?.trim() || booking.holderName,
    typeName: line?.name ?? booking.typeName,
    allowed: own.allowed,
    admitted: own.admitted,
    cancelled: booking.cancelled || own.voidedAt !== null,
    lastCheckInAt: own.lastCheckInAt,
  };
}

/**
 * Counts `persons` on the ticket if it has them left: an attendee's ticket through its own conditional
 * UPDATE and then the booking's (which holds every person of the booking, for the counters); the booking's
 * QR of a booking with attendee tickets within the persons of its other tickets. The caller loaded `ticket`
 * in the same write transaction, so the checks here and the UPDATEs see one state.
 */
export function* admitTicketSteps(
  tx: WriteTx,
  ticket: GateBooking,
  persons: number,
  now: Date,
): Steps<boolean> {
  if (!ticket.attendee && !ticket.hasAttendeeTickets)
    return yield* admitConditionallySteps(tx, ticket.bookingId, persons, now);
  if (persons > ticket.allowed - ticket.admitted) return false;
  if (ticket.attendee) {
    const { attendeeTickets } = tablesOf(tx);
    const counted = yield* changes(
      tx
        .update(attendeeTickets)
        .set({ admitted: sql`${attendeeTickets.admitted} + ${persons}`, lastCheckInAt: now.toISOString() })
        .where(
          and(
            attendeeRow(attendeeTickets, ticket.bookingId, ticket.attendee),
            isNull(attendeeTickets.voidedAt),
            sql`${attendeeTickets.admitted} + ${persons} <= ${attendeeTickets.allowed}`,
          ),
        ),
    );
    if (counted !== 1) return false;
  }
  // The booking's total covers every attendee's persons: this holds whenever the ticket's own check did.
  if (!(yield* admitConditionallySteps(tx, ticket.bookingId, persons, now)))
    throw new Error(`Booking ${ticket.bookingId} cannot count an admission its ticket allowed`);
  return true;
}

/** Takes `persons` off an attendee's ticket again (an undo); the caller takes them off the booking. */
export function* takeOffAttendeeInSteps(
  tx: WriteTx,
  bookingId: string,
  attendee: { ticketTypeId: string; position: number },
  persons: number,
): Steps<void> {
  const { attendeeTickets } = tablesOf(tx);
  yield* changes(
    tx
      .update(attendeeTickets)
      .set({
        admitted: sql`case when ${attendeeTickets.admitted} >= ${persons} then ${attendeeTickets.admitted} - ${persons} else 0 end`,
      })
      .where(attendeeRow(attendeeTickets, bookingId, attendee)),
  );
}

const attendeeRow = (
  attendeeTickets: Tables['attendeeTickets'],
  bookingId: string,
  a: { ticketTypeId: string; position: number },
) =>
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
