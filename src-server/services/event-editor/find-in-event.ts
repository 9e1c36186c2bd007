import { and, eq } from 'drizzle-orm';
import { EDITOR_MESSAGES } from '../../../shared/event-editor-schemas.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';

/** A slot of this event (another event's slot id answers as not found). */
export function* findSlotInEventSteps(tx: WriteTx, eventId: string, slotId: string) {
  const { slots, eventDates } = tablesOf(tx);
  const slot = yield* row(
    tx
      .select({
        id: slots.id,
        startTime: slots.startTime,
        endTime: slots.endTime,
        cancelledAt: slots.cancelledAt,
        eventDateId: slots.eventDateId,
        dateOfEvent: eventDates.dateOfEvent,
      })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(eq(slots.id, slotId), eq(eventDates.eventId, eventId))),
  );
  if (!slot) throw notFound(EDITOR_MESSAGES.slotNotFound);
  return slot;
}

/** A ticket type of this event, with its counts (another event's id answers as not found). */
export function* findTicketTypeInEventSteps(tx: WriteTx, eventId: string, ticketTypeId: string) {
  const { ticketTypes, slots, eventDates } = tablesOf(tx);
  const type = yield* row(
    tx
      .select({
        id: ticketTypes.id,
        name: ticketTypes.name,
        slotId: ticketTypes.slotId,
        totalTickets: ticketTypes.totalTickets,
        availableTickets: ticketTypes.availableTickets,
      })
      .from(ticketTypes)
      .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(eq(ticketTypes.id, ticketTypeId), eq(eventDates.eventId, eventId))),
  );
  if (!type) throw notFound(EDITOR_MESSAGES.ticketTypeNotFound);
  return type;
}
