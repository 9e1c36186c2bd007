import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  codeKeyOf,
  DISCOUNT_REFUSALS,
  type DiscountRefusal,
  type DiscountTerms,
  discountPerTicket,
} from '../../../shared/discount-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { changes, row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { DomainError } from '../../errors.ts';
import { discountCodeTermsOf } from './discount-code-fields.ts';

/**
 * A code's uses (issue 40). A use is taken with the hold, inside Proceed's write transaction, by a
 * conditional UPDATE (`uses < max_uses`), so of 50 buyers racing for the last use exactly one gets it,
 * as with the last seat. It is given back when the hold is released unpaid (services/inventory/holds.ts
 * `releaseHoldSteps`: expiry, dismissal, replacement) or its booking is cancelled
 * (services/bookings/cancel-booking-in.ts). One order is one use, whatever its number of tickets.
 */

export interface PricedSelectionLine {
  ticketTypeId: string;
  pricePaise: number;
  quantity: number;
}

export interface DiscountRequest {
  eventId: string;
  slotId: string;
  userId: string;
  code: string;
  lines: readonly PricedSelectionLine[];
}

export interface AppliedDiscount {
  discountCodeId: string;
  /** As the organiser wrote it. */
  code: string;
  /** Paise off each ticket of each type (0 for a type the code is not for). */
  perTicket: Map<string, number>;
  /** The whole order's discount, before tax. */
  discountPaise: number;
}

/** The code's refusal as the checkout shows it: one message per reason (shared/discount-schemas.ts). */
export function discountRefused(reason: DiscountRefusal): DomainError {
  return new DomainError(reason === 'unknown' ? 'NOT_FOUND' : 'CONFLICT', DISCOUNT_REFUSALS[reason], {
    discountCode: DISCOUNT_REFUSALS[reason],
  });
}

/**
 * Checks a code against the selection without taking a use (the "Apply code" quote and Proceed's
 * advisory price before the gateway order); throws the refusal. `takeDiscountUseIn` decides.
 */
export function evaluateDiscount(db: DbOrTx, input: DiscountRequest, now: Date): AppliedDiscount {
  return runSync(evaluateDiscountSteps(db, input, now));
}

/** `evaluateDiscount` written once for both engines (ADR 0045). */
export function* evaluateDiscountSteps(
  db: DbOrTx,
  input: DiscountRequest,
  now: Date,
): Steps<AppliedDiscount> {
  // The code's terms and the buyer's uses of it in one statement (on the path of every Proceed with a code).
  const found = yield* row(statements(db).byKey, {
    eventId: input.eventId,
    codeKey: codeKeyOf(input.code),
    userId: input.userId,
  });
  const applied = applyOrRefuse(found, input.lines, now);
  const { id, maxUses, maxUsesPerBuyer, uses } = found!;
  const mine = Number(found!.mine);
  // The buyer's own unpaid hold on the slot with this code is released by their Proceed before the
  // new hold takes a use (services/inventory/holds.ts), so it does not count against them here. Under
  // the write lock it has already been released, and this is 0. Looked up only when a limit would
  // refuse without it (its join is the dearest of these reads, docs/benchmarks.md).
  const wouldRefuse =
    (maxUses !== null && uses >= maxUses) || (maxUsesPerBuyer !== null && mine >= maxUsesPerBuyer);
  const replaced = wouldRefuse
    ? Number(
        (yield* row(statements(db).ownActiveOnSlot, {
          discountCodeId: id,
          userId: input.userId,
          slotId: input.slotId,
        }))?.n ?? 0,
      )
    : 0;
  if (maxUses !== null && uses - replaced >= maxUses) throw discountRefused('usedUp');
  if (maxUsesPerBuyer !== null && mine - replaced >= maxUsesPerBuyer) throw discountRefused('alreadyUsed');
  return applied;
}

/**
 * Inside the hold's write transaction: checks the code again and takes one use, or throws the refusal
 * (rolling back the hold's savepoint). The caller writes the use onto the hold's own row with
 * `discountColumnsOf` (inventory/holds.ts' INSERT of the hold: no second table, ADR 0047).
 *
 * One conditional UPDATE both decides the limits (active, `uses < max_uses`, the buyer's unreturned
 * uses below `max_uses_per_buyer`) and returns the code's terms, which are then checked as
 * `evaluateDiscount` checks them (window, types); a refusal there throws, undoing the UPDATE with the
 * hold. When the UPDATE changes nothing, `evaluateDiscount` says why (the rare path): under the lock
 * the buyer's replaced hold is already released, so its counts are the UPDATE's.
 */
export function* takeDiscountUseSteps(tx: DbOrTx, input: DiscountRequest, now: Date): Steps<AppliedDiscount> {
  const taken = yield* row(statements(tx).takeUseOfKey, {
    eventId: input.eventId,
    codeKey: codeKeyOf(input.code),
    userId: input.userId,
  });
  if (!taken) {
    yield* evaluateDiscountSteps(tx, input, now);
    // Not reached on Proceed's path; a caller that keeps the buyer's hold on the slot counts it.
    throw discountRefused('usedUp');
  }
  return applyOrRefuse(taken, input.lines, now);
}

/** The hold's `discount_*` columns for the code it was priced with (nulls without one). */
export function discountColumnsOf(applied: AppliedDiscount | null): {
  discountCodeId: string | null;
  discountPaise: number | null;
} {
  return applied
    ? { discountCodeId: applied.discountCodeId, discountPaise: applied.discountPaise }
    : { discountCodeId: null, discountPaise: null };
}

/**
 * Gives a hold's use back (once: a second call finds it returned), inside the caller's transaction:
 * the hold's release and a paid booking's cancellation (bookings/cancel-booking-in.ts) both give it
 * back here. Returns whether one was given back.
 */
export function* returnDiscountUseSteps(tx: DbOrTx, holdId: string, now: Date): Steps<boolean> {
  const returned = yield* row(statements(tx).markReturned, { holdId, returnedAt: now.toISOString() });
  if (!returned?.discountCodeId) return false;
  yield* changes(statements(tx).giveBackUse, { id: returned.discountCodeId });
  return true;
}

/**
 * A payment that arrived after its hold was released takes its seats again (payments/confirm.ts): the
 * buyer paid the discounted price, so the use is taken again too, even past the limit (the money is in).
 */
export function* retakeDiscountUseSteps(tx: DbOrTx, holdId: string): Steps<void> {
  const { holds, discountCodes } = tablesOf(tx);
  const retaken = yield* row(
    tx
      .update(holds)
      .set({ discountReturnedAt: null })
      .where(and(eq(holds.id, holdId), sql`${holds.discountReturnedAt} is not null`))
      .returning({ discountCodeId: holds.discountCodeId }),
  );
  if (retaken?.discountCodeId) {
    yield* changes(
      tx
        .update(discountCodes)
        .set({ uses: sql`${discountCodes.uses} + 1` })
        .where(eq(discountCodes.id, retaken.discountCodeId)),
    );
  }
}

type CodeRow = DiscountTerms & {
  id: string;
  code: string;
  isActive: boolean;
  validFrom: string | null;
  validUntil: string | null;
  unlocksTicketTypeIds: readonly string[] | null;
};

/** The code's terms on the selection, or the refusal of an unknown, inactive, out-of-window or unrelated code. */
function applyOrRefuse(
  row: CodeRow | undefined,
  lines: readonly PricedSelectionLine[],
  now: Date,
): AppliedDiscount {
  if (!row?.isActive) throw discountRefused('unknown');
  if (row.validFrom && now.getTime() < Date.parse(row.validFrom)) throw discountRefused('notYetValid');
  if (row.validUntil && now.getTime() >= Date.parse(row.validUntil)) throw discountRefused('expired');
  const applied = applyTerms(row, lines);
  // An access code (ADR 0038) is for the selection when it unlocks one of its types, even at no discount.
  if (applied.discountPaise === 0 && !unlocksAnyOf(row.unlocksTicketTypeIds, lines)) {
    throw discountRefused('notForTickets');
  }
  return applied;
}

function unlocksAnyOf(unlocks: readonly string[] | null, lines: readonly PricedSelectionLine[]): boolean {
  return unlocks !== null && lines.some((line) => unlocks.includes(line.ticketTypeId));
}

function applyTerms(
  row: DiscountTerms & { id: string; code: string },
  lines: readonly PricedSelectionLine[],
): AppliedDiscount {
  const perTicket = new Map<string, number>();
  let discountPaise = 0;
  for (const line of lines) {
    const off = discountPerTicket(row, line.ticketTypeId, line.pricePaise);
    perTicket.set(line.ticketTypeId, off);
    discountPaise += off * line.quantity;
  }
  return { discountCodeId: row.id, code: row.code, perTicket, discountPaise };
}

const p = sql.placeholder;

/**
 * The buyer's unreturned uses of the code (the per-buyer limit), through the partial index
 * holds_discount_code_user_idx (the equality on `discount_code_id` implies its `is not null`).
 */
const usesOfBuyerSql = sql`select count(*) from holds where holds.discount_code_id = discount_codes.id
  and holds.user_id = ${p('userId')} and holds.discount_returned_at is null`;

/**
 * Prepared once per connection: Proceed runs them on the path every buyer with a code takes. Built on
 * the tables of the engine `db` runs on (on PostgreSQL, once per transaction that uses them).
 */
const statements = oncePer((db: DbOrTx) => {
  const { discountCodes, holds } = tablesOf(db);
  const DISCOUNT_CODE_TERMS = discountCodeTermsOf(discountCodes);
  return {
    byKey: db
      .select({
        ...DISCOUNT_CODE_TERMS,
        // Counted only for a code with a per-buyer limit.
        mine: sql<number>`case when ${discountCodes.maxUsesPerBuyer} is null then 0 else (${usesOfBuyerSql}) end`,
      })
      .from(discountCodes)
      .where(and(eq(discountCodes.eventId, p('eventId')), eq(discountCodes.codeKey, p('codeKey'))))
      .prepare(),
    ownActiveOnSlot: db
      .select({ n: sql<number>`count(*)` })
      .from(holds)
      .where(
        and(
          eq(holds.discountCodeId, p('discountCodeId')),
          isNull(holds.discountReturnedAt),
          eq(holds.userId, p('userId')),
          eq(holds.slotId, p('slotId')),
          sql`${holds.status} = 'active'`,
        ),
      )
      .prepare(),
    takeUseOfKey: db
      .update(discountCodes)
      .set({ uses: sql`${discountCodes.uses} + 1` })
      .where(
        and(
          eq(discountCodes.eventId, p('eventId')),
          eq(discountCodes.codeKey, p('codeKey')),
          eq(discountCodes.isActive, true),
          sql`(${discountCodes.maxUses} is null or ${discountCodes.uses} < ${discountCodes.maxUses})`,
          sql`(discount_codes.max_uses_per_buyer is null or (${usesOfBuyerSql}) < discount_codes.max_uses_per_buyer)`,
        ),
      )
      .returning(DISCOUNT_CODE_TERMS)
      .prepare(),
    giveBackUse: db
      .update(discountCodes)
      .set({ uses: sql`${discountCodes.uses} - 1` })
      .where(and(eq(discountCodes.id, p('id')), sql`${discountCodes.uses} > 0`))
      .prepare(),
    markReturned: db
      .update(holds)
      .set({ discountReturnedAt: sql`${p('returnedAt')}` })
      .where(
        and(
          eq(holds.id, p('holdId')),
          sql`${holds.discountCodeId} is not null`,
          isNull(holds.discountReturnedAt),
        ),
      )
      .returning({ discountCodeId: holds.discountCodeId })
      .prepare(),
  };
});
