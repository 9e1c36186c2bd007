import { and, asc, eq, inArray } from 'drizzle-orm';
import { QUOTA_MESSAGES, type QuotaFields } from '../../../shared/quota-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { isPostgres } from '../../db/engine/reads.ts';
import { changes, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { badRequest } from '../../errors.ts';

/**
 * Checks a quota's slots and ticket types against the event, inside the writing transaction, and says
 * how many of its seats are already taken: the sold and held seats of its types (each type's total −
 * available, which its own invariant makes held + sold). The capacity may not be below that, and what
 * is left is the quota's `available`, so a quota laid over a type already on sale starts right.
 *
 * On PostgreSQL the types' rows are read FOR UPDATE, in id order (the order a hold takes them): a hold
 * under way on one of them finishes first and is counted, and one starting later waits for this quota
 * to be written (and then takes from it too). SQLite's write lock already keeps them apart.
 */
export function* checkQuotaFieldsSteps(
  tx: DbOrTx,
  eventId: string,
  fields: QuotaFields,
): Steps<{ ticketTypeIds: string[]; available: number }> {
  const { eventDates, slots, ticketTypes } = tablesOf(tx);
  const slotIds = [...new Set(fields.slotIds)];
  const ticketTypeIds = [...new Set(fields.ticketTypeIds)];
  const foundSlots = yield* rows(
    tx
      .select({ id: slots.id })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(eq(eventDates.eventId, eventId), inArray(slots.id, slotIds))),
  );
  if (foundSlots.length !== slotIds.length) {
    throw badRequest(QUOTA_MESSAGES.slotUnknown, { slotIds: QUOTA_MESSAGES.slotUnknown });
  }
  // Another event's type (or none) is "not in the chosen slots": its slot is not one of this event's.
  const typesQuery = tx
    .select({
      id: ticketTypes.id,
      slotId: ticketTypes.slotId,
      total: ticketTypes.totalTickets,
      available: ticketTypes.availableTickets,
    })
    .from(ticketTypes)
    .where(and(inArray(ticketTypes.id, ticketTypeIds), inArray(ticketTypes.slotId, slotIds)));
  const types = yield* rows(
    isPostgres(tx)
      ? (typesQuery.orderBy(asc(ticketTypes.id)) as unknown as { for(s: 'update'): typeof typesQuery }).for(
          'update',
        )
      : typesQuery,
  );
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
export function* setQuotaMembersSteps(tx: DbOrTx, quotaId: string, ticketTypeIds: string[]): Steps<void> {
  const { quotaTicketTypes } = tablesOf(tx);
  yield* changes(tx.delete(quotaTicketTypes).where(eq(quotaTicketTypes.quotaId, quotaId)));
  yield* changes(
    tx.insert(quotaTicketTypes).values(ticketTypeIds.map((ticketTypeId) => ({ quotaId, ticketTypeId }))),
  );
}
