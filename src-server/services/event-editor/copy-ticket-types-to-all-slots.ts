import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventDates, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { editEvent } from './event-version.ts';
import { findSlotInEvent } from './find-in-event.ts';

/**
 * "Copy to all slots": gives every other slot of the event the ticket types of one slot, with the same
 * price, capacity and rules and all seats available. A slot that already has a type of that name keeps
 * its own (so running it twice adds nothing). The sale window is copied as it is.
 */
export async function copyTicketTypesToAllSlots(
  db: Db,
  eventId: string,
  basedOn: number,
  fromSlotId: string,
): Promise<{ version: number; created: number }> {
  return editEvent(db, eventId, basedOn, (tx, version) => {
    findSlotInEvent(tx, eventId, fromSlotId);
    const templates = tx
      .select()
      .from(ticketTypes)
      .where(eq(ticketTypes.slotId, fromSlotId))
      .orderBy(asc(ticketTypes.position))
      .all();
    const targets = tx
      .select({ id: slots.id })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(eq(eventDates.eventId, eventId), ne(slots.id, fromSlotId)))
      .all();
    let created = 0;
    for (const target of targets) {
      const existing = tx
        .select({ name: ticketTypes.name, position: ticketTypes.position })
        .from(ticketTypes)
        .where(eq(ticketTypes.slotId, target.id))
        .all();
      const names = new Set(existing.map((t) => t.name));
      let position = Math.max(-1, ...existing.map((t) => t.position));
      for (const template of templates) {
        if (names.has(template.name)) continue;
        position += 1;
        created += 1;
        tx.insert(ticketTypes)
          .values({
            ...template,
            id: `tt-${randomUUID()}`,
            slotId: target.id,
            availableTickets: template.totalTickets,
            position,
          })
          .run();
      }
    }
    return { version, created };
  });
}
