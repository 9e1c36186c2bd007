import { and, eq, sql } from 'drizzle-orm';
import { codeKeyOf } from '../../../shared/discount-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { notFound } from '../../errors.ts';
import { discountRefused } from '../discounts/discount-uses.ts';

/**
 * Hidden ticket types and the access codes that unlock them (issue 40, ADR 0038). A hidden type is
 * neither shown nor sold unless the buyer brings an active code of the event that unlocks it; the code
 * is a discount code with `unlocks_ticket_type_ids` (and perhaps no discount), so its limits are
 * counted by the discount machinery, inside the hold's transaction (services/discounts/discount-uses.ts).
 */

/**
 * What a hidden type answers without its code: the same as a type that is not on the slot
 * (services/inventory/holds.ts), so neither its name nor its existence leaks.
 */
export const LOCKED_TYPE_MESSAGE = 'No ticket types available for this slot.';

/** Which hidden types a buyer sees: those the code unlocks, when it is the event's and on now. */
export function unlockedTypeIds(
  db: DbOrTx,
  eventId: string,
  code: string | undefined,
  now: Date,
): Set<string> {
  return runSync(unlockedTypeIdsSteps(db, eventId, code, now));
}

/** `unlockedTypeIds` written once for both engines (ADR 0045): the event page reads it on either. */
export function* unlockedTypeIdsSteps(
  db: DbOrTx,
  eventId: string,
  code: string | undefined,
  now: Date,
): Steps<Set<string>> {
  if (!code) return new Set();
  const found = yield* row(statements(db).code, { eventId, codeKey: codeKeyOf(code) });
  if (!found?.isActive || !found.unlocksTicketTypeIds || windowRefusal(found, now)) return new Set();
  return new Set(found.unlocksTicketTypeIds);
}

/**
 * A selected ticket type, with `isHidden` when the caller has just read the type's row (its own
 * statement is then spared on the path every Proceed takes; an unknown type is not hidden).
 */
interface LineOfType {
  ticketTypeId: string;
  isHidden?: boolean;
}

/**
 * Refuses a selection holding a hidden type its code does not unlock (LOCKED_TYPE_MESSAGE, NOT_FOUND).
 * Once the code does unlock every hidden type chosen, a code outside its window is refused with its
 * own message (the buyer knows the code). Proceed asks before the gateway order and the hold asks
 * again under the write lock, where the code's use is then taken like a discount's.
 */
export function refuseLockedTypes(db: DbOrTx, input: LockedTypesInput, now: Date): void {
  runSync(refuseLockedTypesSteps(db, input, now));
}

type LockedTypesInput = { eventId: string; code: string | undefined; lines: readonly LineOfType[] };

/** `refuseLockedTypes` written once for both engines (ADR 0045): the hold asks it under its lock. */
export function* refuseLockedTypesSteps(db: DbOrTx, input: LockedTypesInput, now: Date): Steps<void> {
  const hidden: LineOfType[] = [];
  for (const line of input.lines) {
    const isHidden =
      line.isHidden ?? (yield* row(statements(db).isHidden, { id: line.ticketTypeId }))?.isHidden;
    if (isHidden) hidden.push(line);
  }
  if (hidden.length === 0) return;
  const code = input.code
    ? yield* row(statements(db).code, { eventId: input.eventId, codeKey: codeKeyOf(input.code) })
    : undefined;
  const unlocks = code?.isActive ? (code.unlocksTicketTypeIds ?? []) : [];
  if (!code || !hidden.every((line) => unlocks.includes(line.ticketTypeId)))
    throw notFound(LOCKED_TYPE_MESSAGE);
  const refusal = windowRefusal(code, now);
  if (refusal) throw discountRefused(refusal);
}

function windowRefusal(
  row: { validFrom: string | null; validUntil: string | null },
  now: Date,
): 'notYetValid' | 'expired' | null {
  if (row.validFrom && now.getTime() < Date.parse(row.validFrom)) return 'notYetValid';
  if (row.validUntil && now.getTime() >= Date.parse(row.validUntil)) return 'expired';
  return null;
}

const p = sql.placeholder;

/** Prepared once per connection: Proceed asks on the path every buyer takes. */
const statements = oncePer((db: DbOrTx) => {
  const { ticketTypes, discountCodes } = tablesOf(db);
  return {
    isHidden: db
      .select({ isHidden: ticketTypes.isHidden })
      .from(ticketTypes)
      .where(eq(ticketTypes.id, p('id')))
      .prepare(),
    code: db
      .select({
        isActive: discountCodes.isActive,
        unlocksTicketTypeIds: discountCodes.unlocksTicketTypeIds,
        validFrom: discountCodes.validFrom,
        validUntil: discountCodes.validUntil,
      })
      .from(discountCodes)
      .where(and(eq(discountCodes.eventId, p('eventId')), eq(discountCodes.codeKey, p('codeKey'))))
      .prepare(),
  };
});
