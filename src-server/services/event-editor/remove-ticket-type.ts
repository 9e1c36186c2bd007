import { eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict } from '../../errors.ts';
import { editEvent } from './event-version.ts';
import { findTicketTypeInEventSteps } from './find-in-event.ts';
import { hasBookingsSteps } from './sold-or-held.ts';

/** Deletes a ticket type nobody ever held or bought; one with bookings can only be taken off sale. */
export async function removeTicketType(
  db: Db,
  eventId: string,
  basedOn: number,
  ticketTypeId: string,
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { ticketTypes } = tablesOf(tx);
    yield* findTicketTypeInEventSteps(tx, eventId, ticketTypeId);
    if (yield* hasBookingsSteps(tx, { ticketTypeId }))
      throw conflict(EDITOR_MESSAGES.hasBookings('ticket type'));
    yield* changes(tx.delete(ticketTypes).where(eq(ticketTypes.id, ticketTypeId)));
    return { version };
  });
}
