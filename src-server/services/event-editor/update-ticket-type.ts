import { eq, sql } from 'drizzle-orm';
import { EDITOR_MESSAGES, type TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { ticketTypes } from '../../db/schema/catalog.ts';
import { conflict } from '../../errors.ts';
import { offerReturnedSeats, type WaitlistDeps } from '../waitlist/offer-returned-seats.ts';
import { editEvent } from './event-version.ts';
import { findTicketTypeInEvent } from './find-in-event.ts';
import { heldQuantity } from './sold-or-held.ts';
import { ticketTypeColumns } from './ticket-type-row.ts';

/**
 * Changes a ticket type. Capacity may not drop below what is sold plus held (checked in the same
 * transaction as the update, so a Proceed cannot slip in between); the seats added or removed change
 * what is available by the same amount. A new price applies to new holds only: a hold keeps the price
 * it was taken at, and a booking what it paid. With `waitlist`, seats added (or a type put back on sale)
 * are offered to its waiting list in the same transaction, before any Proceed can take them (ADR 0027).
 */
export async function updateTicketType(
  db: Db,
  eventId: string,
  basedOn: number,
  ticketTypeId: string,
  ticket: TicketTypeFields,
  waitlist?: { deps: WaitlistDeps; now: Date },
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    const type = findTicketTypeInEvent(tx, eventId, ticketTypeId);
    const taken = type.totalTickets - type.availableTickets;
    if (ticket.totalTickets < taken) {
      const held = heldQuantity(tx, ticketTypeId);
      const message = EDITOR_MESSAGES.capacityBelowSold(taken - held, held);
      throw conflict(message, { totalTickets: message });
    }
    tx.update(ticketTypes)
      .set({
        ...ticketTypeColumns(ticket),
        totalTickets: ticket.totalTickets,
        availableTickets: sql`${ticketTypes.availableTickets} + ${ticket.totalTickets - type.totalTickets}`,
      })
      .where(eq(ticketTypes.id, ticketTypeId))
      .run();
    if (waitlist) offerReturnedSeats(tx, waitlist.deps, ticketTypeId, waitlist.now);
    return { version };
  });
}
