import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows as rowsOf, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { signAttendeeTicketToken } from '../tickets/ticket-token.ts';

/** One attendee's own ticket as the buyer's ticket page and PDF show it (ADR 0046). */
export interface OwnAttendeeTicket {
  ticketTypeId: string;
  typeName: string;
  position: number;
  /** The name given for this attendee; null when none was asked or given. */
  name: string | null;
  /** "Ticket 2 of 3 · Priya" */
  label: string;
  qrToken: string;
}

interface AttendeeTicketsBooking {
  id: string;
  transferCount: number;
  ticketTypes: readonly { id: string; name: string }[];
}

/** At most this many booking ids in one IN list. */
const CHUNK = 500;

/**
 * The live (not cancelled) attendee tickets of each booking, in the booking's line order then position,
 * each with its own signed QR at the booking's current transfer generation. One read for all the bookings
 * (My Bookings lists many); a booking without attendee tickets has none. Written once for both engines
 * (ADR 0045).
 */
export function* ownAttendeeTicketsSteps(
  db: DbOrTx,
  appSecret: string,
  list: readonly AttendeeTicketsBooking[],
): Steps<Map<string, OwnAttendeeTicket[]>> {
  const { attendeeTickets, bookingAttendees } = tablesOf(db);
  const out = new Map<string, OwnAttendeeTicket[]>();
  const ids = list.map((b) => b.id);
  const rows: {
    bookingId: string;
    ticketTypeId: string;
    position: number;
    name: string | null;
  }[] = [];
  for (let i = 0; i < ids.length; i += CHUNK)
    rows.push(
      ...(yield* rowsOf(
        db
          .select({
            bookingId: attendeeTickets.bookingId,
            ticketTypeId: attendeeTickets.ticketTypeId,
            position: attendeeTickets.position,
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
            and(
              inArray(attendeeTickets.bookingId, ids.slice(i, i + CHUNK)),
              isNull(attendeeTickets.voidedAt),
            ),
          )
          .orderBy(asc(attendeeTickets.position)),
      )),
    );
  if (rows.length === 0) return out;
  const byBooking = new Map(list.map((b) => [b.id, b]));
  for (const r of rows) {
    const booking = byBooking.get(r.bookingId);
    if (!booking) continue;
    const line = booking.ticketTypes.find((l) => l.id === r.ticketTypeId);
    const name = r.name?.trim() || null;
    const tickets = out.get(r.bookingId) ?? [];
    tickets.push({
      ticketTypeId: r.ticketTypeId,
      typeName: line?.name ?? '',
      position: r.position,
      name,
      label: '',
      qrToken: signAttendeeTicketToken(appSecret, r.bookingId, booking.transferCount, {
        ticketTypeId: r.ticketTypeId,
        position: r.position,
      }),
    });
    out.set(r.bookingId, tickets);
  }
  for (const [bookingId, tickets] of out) {
    const order = (byBooking.get(bookingId)?.ticketTypes ?? []).map((l) => l.id);
    tickets.sort(
      (a, b) => order.indexOf(a.ticketTypeId) - order.indexOf(b.ticketTypeId) || a.position - b.position,
    );
    tickets.forEach((t, i) => {
      t.label = attendeeTicketLabel(i + 1, tickets.length, t.name);
    });
  }
  return out;
}

/** "Ticket 2 of 3 · Priya" (the name only when one was given). */
export const attendeeTicketLabel = (n: number, of: number, name: string | null) =>
  `Ticket ${n} of ${of}${name ? ` · ${name}` : ''}`;
