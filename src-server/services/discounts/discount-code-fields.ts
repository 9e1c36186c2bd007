import { and, eq, inArray } from 'drizzle-orm';
import { codeKeyOf, DISCOUNT_MESSAGES, type DiscountFields } from '../../../shared/discount-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { discountCodes as sqliteDiscountCodes } from '../../db/schema/discounts.ts';
import { badRequest, conflict } from '../../errors.ts';
import { isUniqueViolation } from '../accounts/sign-up.ts';

/**
 * The stored columns of a code as the organiser set it, after the checks zod cannot make: every
 * chosen ticket type is the event's, and no other code of the event matches it ignoring case. On
 * SQLite the check is final (write transactions run one at a time); on PostgreSQL two transactions can
 * both pass it, and the unique index on (event, code key) refuses the second: `codeTakenOr` answers it.
 */
export function* discountCodeColumnsSteps(
  tx: DbOrTx,
  eventId: string,
  fields: DiscountFields,
  exceptId?: string,
) {
  const { discountCodes } = tablesOf(tx);
  const codeKey = codeKeyOf(fields.code);
  const taken = yield* row(
    tx
      .select({ id: discountCodes.id })
      .from(discountCodes)
      .where(and(eq(discountCodes.eventId, eventId), eq(discountCodes.codeKey, codeKey))),
  );
  if (taken && taken.id !== exceptId) throw codeTaken();
  const typeIds = yield* eventTypeIdsSteps(tx, eventId, fields.ticketTypeIds, 'ticketTypeIds');
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
    unlocksTicketTypeIds: yield* eventTypeIdsSteps(
      tx,
      eventId,
      fields.unlocksTicketTypeIds,
      'unlocksTicketTypeIds',
    ),
  };
}

/**
 * A code's write, its unique index's refusal told as the name being taken: two organisers creating (or
 * renaming to) one code at once on PostgreSQL both pass the check above, and the second waits on the
 * first's index entry, then gets 23505. The only unique index these writes can hit is (event, code key).
 */
export async function codeTakenOr<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken();
    throw error;
  }
}

function codeTaken() {
  return conflict(DISCOUNT_MESSAGES.codeTaken, { code: DISCOUNT_MESSAGES.codeTaken });
}

/** The chosen ticket types without repeats, refused unless every one is the event's. */
function* eventTypeIdsSteps(
  tx: DbOrTx,
  eventId: string,
  chosen: readonly string[] | null,
  field: 'ticketTypeIds' | 'unlocksTicketTypeIds',
): Steps<string[] | null> {
  const typeIds = chosen ? [...new Set(chosen)] : null;
  if (typeIds) {
    const { eventDates, slots, ticketTypes } = tablesOf(tx);
    const found = yield* rows(
      tx
        .select({ id: ticketTypes.id })
        .from(ticketTypes)
        .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .where(and(eq(eventDates.eventId, eventId), inArray(ticketTypes.id, typeIds))),
    );
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
export const discountCodeTermsOf = (discountCodes: typeof sqliteDiscountCodes) => ({
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
