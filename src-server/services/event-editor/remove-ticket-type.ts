import { eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { ticketTypes } from '../../db/schema/catalog.ts';
import { conflict } from '../../errors.ts';
import { editEvent } from './event-version.ts';
import { findTicketTypeInEvent } from './find-in-event.ts';
import { hasBookings } from './sold-or-held.ts';

/** Deletes a ticket type nobody ever held or bought; one with bookings can only be taken off sale. */
export async function removeTicketType(
  db: Db,
  eventId: string,
  basedOn: number,
  ticketTypeId: string,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    findTicketTypeInEvent(tx, eventId, ticketTypeId);
    if (hasBookings(tx, { ticketTypeId })) throw conflict(EDITOR_MESSAGES.hasBookings('ticket type'));
    tx.delete(ticketTypes).where(eq(ticketTypes.id, ticketTypeId)).run();
    return { version };
  });
}
