import { eq, sql } from 'drizzle-orm';
import { EDITOR_MESSAGES, type TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import type { Db } from '../../db/client.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict } from '../../errors.ts';
import {
  lockForOfferSteps,
  offerReturnedSeatsSteps,
  type WaitlistDeps,
} from '../waitlist/offer-returned-seats.ts';
import { editEvent } from './event-version.ts';
import { findTicketTypeInEventSteps } from './find-in-event.ts';
import { heldQuantitySteps } from './sold-or-held.ts';
import { ticketTypeColumns } from './ticket-type-row.ts';

/**
 * Changes a ticket type. Capacity may not drop below what is sold plus held (checked in the same
 * transaction as the update, so a Proceed cannot slip in between); the seats added or removed change
 * what is available by the same amount. A new price applies to new holds only: a hold keeps the price
 * it was taken at, and a booking what it paid. With `waitlist`, seats added (or a type put back on sale)
 * are offered to its waiting list in the same transaction, before any Proceed can take them (ADR 0027).
 * The type's row and its quotas' rows are written first (`lockForOfferSteps`, a hold's order): on
 * PostgreSQL no hold then takes seats between the check and the update, and the offer holds the locks
 * it needs (waitlist/offer-returned-seats.ts). Two organisers' edits are kept apart by the version.
 */
export async function updateTicketType(
  db: Db,
  eventId: string,
  basedOn: number,
  ticketTypeId: string,
  ticket: TicketTypeFields,
  waitlist?: { deps: WaitlistDeps; now: Date },
): Promise<{ version: number }> {
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { ticketTypes } = tablesOf(tx);
    const type = yield* findTicketTypeInEventSteps(tx, eventId, ticketTypeId);
    yield* lockForOfferSteps(tx, ticketTypeId);
    // Read again under the lock: a hold may have taken seats since the first read.
    const locked = yield* findTicketTypeInEventSteps(tx, eventId, type.id);
    const taken = locked.totalTickets - locked.availableTickets;
    if (ticket.totalTickets < taken) {
      const held = yield* heldQuantitySteps(tx, ticketTypeId);
      const message = EDITOR_MESSAGES.capacityBelowSold(taken - held, held);
      throw conflict(message, { totalTickets: message });
    }
    yield* changes(
      tx
        .update(ticketTypes)
        .set({
          ...ticketTypeColumns(ticket),
          totalTickets: ticket.totalTickets,
          availableTickets: sql`${ticketTypes.availableTickets} + ${ticket.totalTickets - locked.totalTickets}`,
        })
        .where(eq(ticketTypes.id, ticketTypeId)),
    );
    if (waitlist) yield* offerReturnedSeatsSteps(tx, waitlist.deps, ticketTypeId, waitlist.now);
    return { version };
  });
}
