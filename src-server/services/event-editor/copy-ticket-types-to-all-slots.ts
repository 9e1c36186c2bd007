import { randomUUID } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import { planTicketTypeCopy, shiftToSlot } from '../../../shared/copy-ticket-types.ts';
import type { Db } from '../../db/client.ts';
import { changes, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { copyQuestionsSteps } from '../questions/copy-questions.ts';
import { type CopiedType, copyQuotasWithTypesSteps } from '../quotas/copy-quotas.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEventSteps } from './find-in-event.ts';

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
  return editEvent(db, eventId, basedOn, function* (tx, version) {
    const { eventDates, slots, ticketTypes } = tablesOf(tx);
    const source = yield* findSlotInEventSteps(tx, eventId, fromSlotId);
    const slotRows = yield* rows(
      tx
        .select({ id: slots.id, startTime: slots.startTime, cancelledAt: slots.cancelledAt })
        .from(slots)
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .where(eq(eventDates.eventId, eventId)),
    );
    const typeRows = yield* rows(
      tx
        .select()
        .from(ticketTypes)
        .where(
          inArray(
            ticketTypes.slotId,
            slotRows.map((s) => s.id),
          ),
        )
        .orderBy(asc(ticketTypes.position)),
    );
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
        yield* changes(
          tx.insert(ticketTypes).values({
            ...template,
            id,
            slotId: slot.id,
            availableTickets: template.totalTickets,
            saleOpensAt: shiftToSlot(template.saleOpensAt, source.startTime, slot.startTime),
            saleClosesAt: shiftToSlot(template.saleClosesAt, source.startTime, slot.startTime),
            position,
          }),
        );
        yield* copyQuestionsSteps(tx, template.id, id);
      }
    }
    yield* copyQuotasWithTypesSteps(tx, eventId, copies, now);
    return { version, created: plan.ticketTypes };
  });
}
