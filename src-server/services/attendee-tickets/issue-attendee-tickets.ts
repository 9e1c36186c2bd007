import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { changes, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { BookedTicketLine } from '../../db/schema/bookings.ts';

/**
 * Gives each ticket of a "one ticket per attendee" type its own ticket (ADR 0046), in the transaction that
 * writes the booking: positions 1..quantity, each admitting the type's persons per ticket. Whether a type
 * has the setting is read now: a booking keeps the kind of tickets it was sold with, whatever the
 * organiser changes later. Nothing is written for other types (their tickets are the booking's QR).
 */
export function* issueAttendeeTicketsSteps(
  tx: DbOrTx,
  booking: { id: string; slotId: string; lines: readonly BookedTicketLine[] },
): Steps<void> {
  if (booking.lines.length === 0) return;
  const { attendeeTickets, ticketTypes } = tablesOf(tx);
  const perAttendee = yield* rows(
    tx
      .select({ id: ticketTypes.id })
      .from(ticketTypes)
      .where(
        and(
          inArray(
            ticketTypes.id,
            booking.lines.map((l) => l.id),
          ),
          eq(ticketTypes.perAttendeeTickets, true),
        ),
      ),
  );
  const ids = new Set(perAttendee.map((t) => t.id));
  const tickets = booking.lines.flatMap((line) =>
    ids.has(line.id)
      ? Array.from({ length: line.quantity }, (_, i) => ({
          bookingId: booking.id,
          slotId: booking.slotId,
          ticketTypeId: line.id,
          position: i + 1,
          allowed: line.personAllowedPerTicket,
        }))
      : [],
  );
  if (tickets.length > 0) yield* changes(tx.insert(attendeeTickets).values(tickets));
}
