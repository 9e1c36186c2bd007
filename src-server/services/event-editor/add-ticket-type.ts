import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { ticketTypes } from '../../db/schema/catalog.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEvent } from './find-in-event.ts';
import { ticketTypeColumns } from './ticket-type-row.ts';

/** Adds a ticket type to one of the event's slots, listed after the slot's others, all seats available. */
export async function addTicketType(
  db: Db,
  eventId: string,
  basedOn: number,
  slotId: string,
  ticket: TicketTypeFields,
): Promise<{ version: number; ticketTypeId: string }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    findSlotInEvent(tx, eventId, slotId);
    const ticketTypeId = `tt-${randomUUID()}`;
    const last = tx
      .select({ position: sql<number | null>`max(${ticketTypes.position})` })
      .from(ticketTypes)
      .where(eq(ticketTypes.slotId, slotId))
      .get();
    tx.insert(ticketTypes)
      .values({
        id: ticketTypeId,
        slotId,
        ...ticketTypeColumns(ticket),
        totalTickets: ticket.totalTickets,
        availableTickets: ticket.totalTickets,
        position: (last?.position ?? -1) + 1,
      })
      .run();
    return { version, ticketTypeId };
  });
}
