import { and, eq, inArray } from 'drizzle-orm';
import { QUOTA_MESSAGES, type QuotaFields } from '../../../shared/quota-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { eventDates, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { quotaTicketTypes } from '../../db/schema/quotas.ts';
import { badRequest } from '../../errors.ts';

/**
 * Checks a quota's slots and ticket types against the event, inside the writing transaction, and says
 * how many of its seats are already taken: the sold and held seats of its types (each type's total −
 * available, which its own invariant makes held + sold). The capacity may not be below that, and what
 * is left is the quota's `available`, so a quota laid over a type already on sale starts right.
 */
export function checkQuotaFields(
  tx: DbOrTx,
  eventId: string,
  fields: QuotaFields,
): { ticketTypeIds: string[]; available: number } {
  const slotIds = [...new Set(fields.slotIds)];
  const ticketTypeIds = [...new Set(fields.ticketTypeIds)];
  const foundSlots = tx
    .select({ id: slots.id })
    .from(slots)
    .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
    .where(and(eq(eventDates.eventId, eventId), inArray(slots.id, slotIds)))
    .all();
  if (foundSlots.length !== slotIds.length) {
    throw badRequest(QUOTA_MESSAGES.slotUnknown, { slotIds: QUOTA_MESSAGES.slotUnknown });
  }
  // Another event's type (or none) is "not in the chosen slots": its slot is not one of this event's.
  const types = tx
    .select({
      id: ticketTypes.id,
      slotId: ticketTypes.slotId,
      total: ticketTypes.totalTickets,
      available: ticketTypes.availableTickets,
    })
    .from(ticketTypes)
    .where(and(inArray(ticketTypes.id, ticketTypeIds), inArray(ticketTypes.slotId, slotIds)))
    .all();
  if (types.length !== ticketTypeIds.length) {
    throw badRequest(QUOTA_MESSAGES.typeNotInSlots, { ticketTypeIds: QUOTA_MESSAGES.typeNotInSlots });
  }
  if (slotIds.some((slotId) => !types.some((t) => t.slotId === slotId))) {
    throw badRequest(QUOTA_MESSAGES.slotWithoutType, { ticketTypeIds: QUOTA_MESSAGES.slotWithoutType });
  }
  const taken = types.reduce((sum, t) => sum + (t.total - t.available), 0);
  if (fields.capacity < taken) {
    throw badRequest(QUOTA_MESSAGES.belowTaken(taken), { capacity: QUOTA_MESSAGES.belowTaken(taken) });
  }
  return { ticketTypeIds, available: fields.capacity - taken };
}

/** Replaces the quota's ticket types, inside the caller's transaction. */
export function setQuotaMembers(tx: DbOrTx, quotaId: string, ticketTypeIds: string[]): void {
  tx.delete(quotaTicketTypes).where(eq(quotaTicketTypes.quotaId, quotaId)).run();
  tx.insert(quotaTicketTypes)
    .values(ticketTypeIds.map((ticketTypeId) => ({ quotaId, ticketTypeId })))
    .run();
}
