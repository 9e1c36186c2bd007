import { and, eq, inArray } from 'drizzle-orm';
import { gateTicketId } from '../../../shared/ticket-token-format.ts';
import type { DbOrTx } from '../../db/client.ts';
import { rows as rowsOfQuery, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { attendeeTicketLabel } from './own-attendee-tickets.ts';

/** One attendee's own ticket as the gate's look-up lists it under its booking (ADR 0046). */
export interface LookedUpAttendeeTicket {
  /** The gate ticket id (`{bookingId}+{typeId}+{position}`) the gate admits and shows the history of. */
  ticketId: string;
  /** The attendee's name; the booking's holder when none was given. */
  name: string;
  typeName: string;
  /** "Ticket 2 of 3 · Priya", as the buyer's ticket page labels the QR they hold up. */
  label: string;
  allowed: number;
  admitted: number;
  /** Voided by a part cancellation (ADR 0043), or the booking is cancelled. */
  cancelled: boolean;
}

/**
 * The attendee tickets of some looked-up bookings (at most the look-up's 20), so the volunteer admits the
 * person in front of them, not "the booking": each with its own name and count. `rest` is, per booking that
 * has attendee tickets, what its own QR still admits (the persons of its other tickets), as the gate decides
 * (`loadGateTicket`). One read by the primary key's prefix; a booking without attendee tickets has none.
 */
export function lookUpAttendeeTickets(
  db: DbOrTx,
  found: readonly LookedUpBooking[],
): Map<string, LookedUpAttendeeTickets> {
  return runSync(lookUpAttendeeTicketsSteps(db, found));
}

interface LookedUpBooking {
  bookingId: string;
  holderName: string;
  allowed: number;
  admitted: number;
  cancelled: boolean;
  lines: readonly { id: string; name: string }[];
}

interface LookedUpAttendeeTickets {
  tickets: LookedUpAttendeeTicket[];
  rest: { allowed: number; admitted: number };
}

/** `lookUpAttendeeTickets` written once for both engines (ADR 0045). */
export function* lookUpAttendeeTicketsSteps(
  db: DbOrTx,
  found: readonly LookedUpBooking[],
): Steps<Map<string, LookedUpAttendeeTickets>> {
  const out = new Map<string, LookedUpAttendeeTickets>();
  if (found.length === 0) return out;
  const { attendeeTickets, bookingAttendees } = tablesOf(db);
  const rows = yield* rowsOfQuery(
    db
      .select({
        bookingId: attendeeTickets.bookingId,
        ticketTypeId: attendeeTickets.ticketTypeId,
        position: attendeeTickets.position,
        allowed: attendeeTickets.allowed,
        admitted: attendeeTickets.admitted,
        voidedAt: attendeeTickets.voidedAt,
        name: bookingAttendees.name,
      })
      .from(attendeeTickets)
      .leftJoin(
        bookingAttendees,
        and(
          eq(bookingAttendees.bookingId, attendeeTickets.bookingId),
          eq(bookingAttendees.ticketTypeId, attendeeTickets.ticketTypeId),
          eq(bookingAttendees.position, attendeeTickets.position),
        ),
      )
      .where(
        inArray(
          attendeeTickets.bookingId,
          found.map((b) => b.bookingId),
        ),
      ),
  );
  const byId = new Map(found.map((b) => [b.bookingId, b]));
  const rowsOf = new Map<string, typeof rows>();
  for (const r of rows) rowsOf.set(r.bookingId, [...(rowsOf.get(r.bookingId) ?? []), r]);
  for (const [bookingId, list] of rowsOf) {
    const booking = byId.get(bookingId)!;
    const order = booking.lines.map((l) => l.id);
    // In the booking's line order then position, numbered as the buyer's ticket page numbers its QRs
    // (live tickets only: a voided one is not on the buyer's page).
    list.sort(
      (a, b) => order.indexOf(a.ticketTypeId) - order.indexOf(b.ticketTypeId) || a.position - b.position,
    );
    const live = list.filter((r) => !r.voidedAt);
    const rest = { allowed: booking.allowed, admitted: booking.admitted };
    const tickets = list.map((r): LookedUpAttendeeTicket => {
      if (!r.voidedAt) rest.allowed -= r.allowed;
      rest.admitted -= r.admitted;
      const name = r.name?.trim() || null;
      return {
        ticketId: gateTicketId(bookingId, { ticketTypeId: r.ticketTypeId, position: r.position }),
        name: name ?? booking.holderName,
        typeName: booking.lines.find((l) => l.id === r.ticketTypeId)?.name ?? '',
        label: r.voidedAt
          ? (name ?? booking.holderName)
          : attendeeTicketLabel(live.indexOf(r) + 1, live.length, name),
        allowed: r.allowed,
        admitted: r.admitted,
        cancelled: booking.cancelled || r.voidedAt !== null,
      };
    });
    out.set(bookingId, {
      tickets,
      rest: { allowed: Math.max(0, rest.allowed), admitted: Math.max(0, rest.admitted) },
    });
  }
  return out;
}
