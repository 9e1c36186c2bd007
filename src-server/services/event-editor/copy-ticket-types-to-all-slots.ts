import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { planTicketTypeCopy, shiftToSlot } from '../../../shared/copy-ticket-types.ts';
import type { Db } from '../../db/client.ts';
import { eventDates, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { copyQuestionsIn } from '../questions/copy-questions.ts';
import { type CopiedType, copyQuotasWithTypes } from '../quotas/copy-quotas.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEvent } from './find-in-event.ts';

/**
 * "Copy to all slots": gives every other live slot of the event the ticket types of one slot, with the
 * same price, capacity and rules and all seats available (shared/copy-ticket-types.ts plans it, and the
 * editor's confirmation names the same counts). A slot that already has a type of that name keeps its
 * own, so running it twice adds nothing. A sale window keeps its distance from the slot's start. A
 * shared capacity of the copied types becomes each slot's own (services/quotas/copy-quotas.ts).
 */
export async function copyTicketTypesToAllSlots(
  db: Db,
  eventId: string,
  basedOn: number,
  fromSlotId: string,
  now: Date,
): Promise<{ version: number; created: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    const source = findSlotInEvent(tx, eventId, fromSlotId);
    const slotRows = tx
      .select({ id: slots.id, startTime: slots.startTime, cancelledAt: slots.cancelledAt })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(eq(eventDates.eventId, eventId))
      .all();
    const typeRows = tx
      .select()
      .from(ticketTypes)
      .where(
        inArray(
          ticketTypes.slotId,
          slotRows.map((s) => s.id),
        ),
      )
      .orderBy(asc(ticketTypes.position))
      .all();
    const plan = planTicketTypeCopy(
      slotRows.map((s) => ({
        id: s.id,
        startTime: s.startTime,
        cancelled: s.cancelledAt !== null,
        tickets: typeRows.filter((t) => t.slotId === s.id),
      })),
      fromSlotId,
    );
    const copies: CopiedType[] = [];
    for (const { slot, types } of plan.additions) {
      let position = Math.max(-1, ...slot.tickets.map((t) => t.position));
      for (const template of types) {
        position += 1;
        const id = `tt-${randomUUID()}`;
        copies.push({ fromTypeId: template.id, toTypeId: id, toSlotId: slot.id });
        tx.insert(ticketTypes)
          .values({
            ...template,
            id,
            slotId: slot.id,
            availableTickets: template.totalTickets,
            saleOpensAt: shiftToSlot(template.saleOpensAt, source.startTime, slot.startTime),
            saleClosesAt: shiftToSlot(template.saleClosesAt, source.startTime, slot.startTime),
            position,
          })
          .run();
        copyQuestionsIn(tx, template.id, id);
      }
    }
    copyQuotasWithTypes(tx, eventId, copies, now);
    return { version, created: plan.ticketTypes };
  });
}
