import { and, eq, inArray } from 'drizzle-orm';
import { codeKeyOf, DISCOUNT_MESSAGES, type DiscountFields } from '../../../shared/discount-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { eventDates, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { discountCodes } from '../../db/schema/discounts.ts';
import { badRequest, conflict } from '../../errors.ts';

/**
 * The stored columns of a code as the organiser set it, after the checks zod cannot make: every
 * chosen ticket type is the event's, and no other code of the event matches it ignoring case.
 */
export function discountCodeColumns(tx: DbOrTx, eventId: string, fields: DiscountFields, exceptId?: string) {
  const codeKey = codeKeyOf(fields.code);
  const taken = tx
    .select({ id: discountCodes.id })
    .from(discountCodes)
    .where(and(eq(discountCodes.eventId, eventId), eq(discountCodes.codeKey, codeKey)))
    .get();
  if (taken && taken.id !== exceptId) {
    throw conflict(DISCOUNT_MESSAGES.codeTaken, { code: DISCOUNT_MESSAGES.codeTaken });
  }
  const typeIds = eventTypeIds(tx, eventId, fields.ticketTypeIds, 'ticketTypeIds');
  return {
    code: fields.code,
    codeKey,
    kind: fields.kind,
    // Only the chosen kind's figure is kept, so a code never carries two discounts.
    percentOff: fields.kind === 'percent' ? fields.percentOff : null,
    amountOffPaise: fields.kind === 'fixed' ? fields.amountOffPaise : null,
    ticketTypeIds: typeIds,
    validFrom: fields.validFrom,
    validUntil: fields.validUntil,
    maxUses: fields.maxUses,
    maxUsesPerBuyer: fields.maxUsesPerBuyer,
    unlocksTicketTypeIds: eventTypeIds(tx, eventId, fields.unlocksTicketTypeIds, 'unlocksTicketTypeIds'),
  };
}

/** The chosen ticket types without repeats, refused unless every one is the event's. */
function eventTypeIds(
  tx: DbOrTx,
  eventId: string,
  chosen: readonly string[] | null,
  field: 'ticketTypeIds' | 'unlocksTicketTypeIds',
): string[] | null {
  const typeIds = chosen ? [...new Set(chosen)] : null;
  if (typeIds) {
    const found = tx
      .select({ id: ticketTypes.id })
      .from(ticketTypes)
      .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(eq(eventDates.eventId, eventId), inArray(ticketTypes.id, typeIds)))
      .all();
    if (found.length !== typeIds.length) {
      throw badRequest(DISCOUNT_MESSAGES.typeUnknown, { [field]: DISCOUNT_MESSAGES.typeUnknown });
    }
  }
  return typeIds;
}

/**
 * A code's terms and its count of uses, as both Proceed's check and the console's list read them, from
 * the `discount_codes` table of either engine (engine/tables.ts).
 */
export const discountCodeTermsOf = (
  discountCodes: typeof import('../../db/schema/discounts.ts').discountCodes,
) => ({
  id: discountCodes.id,
  code: discountCodes.code,
  kind: discountCodes.kind,
  percentOff: discountCodes.percentOff,
  amountOffPaise: discountCodes.amountOffPaise,
  ticketTypeIds: discountCodes.ticketTypeIds,
  validFrom: discountCodes.validFrom,
  validUntil: discountCodes.validUntil,
  maxUses: discountCodes.maxUses,
  maxUsesPerBuyer: discountCodes.maxUsesPerBuyer,
  unlocksTicketTypeIds: discountCodes.unlocksTicketTypeIds,
  uses: discountCodes.uses,
  isActive: discountCodes.isActive,
});

export const DISCOUNT_CODE_TERMS = discountCodeTermsOf(discountCodes);
