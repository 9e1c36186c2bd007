import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEventSteps } from './find-in-event.ts';
import { ticketTypeColumns } from './ticket-type-row.ts';

/** Adds a ticket type to one of the event's slots, listed after the slot's others, all seats available. */
export async function addTicketType(
  db: Db,
  eventId: string,
  basedOn: number,
  slotId: string,
  ticket: TicketTypeFields,
): Promise<{ version: number; ticketTypeId: string }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { ticketTypes } = tablesOf(tx);
    yield* findSlotInEventSteps(tx, eventId, slotId);
    const ticketTypeId = `tt-${randomUUID()}`;
    const last = yield* row(
      tx
        .select({ position: sql<number | null>`max(${ticketTypes.position})` })
        .from(ticketTypes)
        .where(eq(ticketTypes.slotId, slotId)),
    );
    yield* changes(
      tx.insert(ticketTypes).values({
        id: ticketTypeId,
        slotId,
        ...ticketTypeColumns(ticket),
        totalTickets: ticket.totalTickets,
        availableTickets: ticket.totalTickets,
        position: (last?.position ?? -1) + 1,
      }),
    );
    return { version, ticketTypeId };
  });
}
