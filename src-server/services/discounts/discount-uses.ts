import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  codeKeyOf,
  DISCOUNT_REFUSALS,
  type DiscountRefusal,
  type DiscountTerms,
  discountPerTicket,
} from '../../../shared/discount-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { oncePer } from '../../db/once-per.ts';
import { discountCodes, holdDiscounts } from '../../db/schema/discounts.ts';
import { holds } from '../../db/schema/payments.ts';
import { DomainError } from '../../errors.ts';
import { DISCOUNT_CODE_TERMS } from './discount-code-fields.ts';

/**
 * A code's uses (issue 40). A use is taken with the hold, inside Proceed's write transaction, by a
 * conditional UPDATE (`uses < max_uses`), so of 50 buyers racing for the last use exactly one gets it,
 * as with the last seat. It is given back when the hold is released unpaid (services/inventory/holds.ts
 * `releaseHoldIn`: expiry, dismissal, replacement) or its booking is cancelled
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
  const row = statements(db).byKey.get({ eventId: input.eventId, codeKey: codeKeyOf(input.code) });
  if (!row?.isActive) throw discountRefused('unknown');
  if (row.validFrom && now.getTime() < Date.parse(row.validFrom)) throw discountRefused('notYetValid');
  if (row.validUntil && now.getTime() >= Date.parse(row.validUntil)) throw discountRefused('expired');
  const applied = applyTerms(row, input.lines);
  // An access code (ADR 0038) is for the selection when it unlocks one of its types, even at no discount.
  if (applied.discountPaise === 0 && !unlocksAnyOf(row.unlocksTicketTypeIds, input.lines)) {
    throw discountRefused('notForTickets');
  }
  // The buyer's own unpaid hold on the slot with this code is released by their Proceed before the
  // new hold takes a use (services/inventory/holds.ts), so it does not count against them here. Under
  // the write lock it has already been released, and this is 0.
  const replaced =
    row.maxUses === null && row.maxUsesPerBuyer === null
      ? 0
      : (statements(db).ownActiveOnSlot.get({
          discountCodeId: row.id,
          userId: input.userId,
          slotId: input.slotId,
        })?.n ?? 0);
  if (row.maxUses !== null && row.uses - replaced >= row.maxUses) throw discountRefused('usedUp');
  if (row.maxUsesPerBuyer !== null) {
    const mine = statements(db).usesOfBuyer.get({ discountCodeId: row.id, userId: input.userId })?.n ?? 0;
    if (mine - replaced >= row.maxUsesPerBuyer) throw discountRefused('alreadyUsed');
  }
  return applied;
}

/**
 * Inside the hold's write transaction: checks the code again and takes one use, or throws the refusal
 * (rolling back the hold's savepoint). The caller records the hold's `hold_discounts` row with
 * `recordDiscountIn` once the hold exists.
 */
export function takeDiscountUseIn(tx: DbOrTx, input: DiscountRequest, now: Date): AppliedDiscount {
  const applied = evaluateDiscount(tx, input, now);
  if (statements(tx).takeUse.run({ id: applied.discountCodeId }).changes !== 1) {
    throw discountRefused('usedUp');
  }
  return applied;
}

export function recordDiscountIn(
  tx: DbOrTx,
  holdId: string,
  userId: string,
  applied: AppliedDiscount,
  now: Date,
): void {
  statements(tx).insertHoldDiscount.run({
    holdId,
    discountCodeId: applied.discountCodeId,
    userId,
    discountPaise: applied.discountPaise,
    createdAt: now.toISOString(),
  });
}

/** Gives a hold's use back (once: a second call finds it returned). Inside the caller's transaction. */
export function returnDiscountUseIn(tx: DbOrTx, holdId: string, now: Date): boolean {
  const returned = statements(tx).markReturned.get({ holdId, returnedAt: now.toISOString() });
  if (!returned) return false;
  statements(tx).giveBackUse.run({ id: returned.discountCodeId });
  return true;
}

/**
 * A payment that arrived after its hold was released takes its seats again (payments/confirm.ts): the
 * buyer paid the discounted price, so the use is taken again too, even past the limit (the money is in).
 */
export function retakeDiscountUseIn(tx: DbOrTx, holdId: string): void {
  const row = tx
    .update(holdDiscounts)
    .set({ returnedAt: null })
    .where(and(eq(holdDiscounts.holdId, holdId), sql`${holdDiscounts.returnedAt} is not null`))
    .returning({ discountCodeId: holdDiscounts.discountCodeId })
    .get();
  if (row) {
    tx.update(discountCodes)
      .set({ uses: sql`${discountCodes.uses} + 1` })
      .where(eq(discountCodes.id, row.discountCodeId))
      .run();
  }
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

/** Prepared once per connection: Proceed runs them on the path every buyer with a code takes. */
const statements = oncePer((db: DbOrTx) => ({
  byKey: db
    .select(DISCOUNT_CODE_TERMS)
    .from(discountCodes)
    .where(and(eq(discountCodes.eventId, p('eventId')), eq(discountCodes.codeKey, p('codeKey'))))
    .prepare(),
  usesOfBuyer: db
    .select({ n: sql<number>`count(*)` })
    .from(holdDiscounts)
    .where(
      and(
        eq(holdDiscounts.discountCodeId, p('discountCodeId')),
        eq(holdDiscounts.userId, p('userId')),
        isNull(holdDiscounts.returnedAt),
      ),
    )
    .prepare(),
  ownActiveOnSlot: db
    .select({ n: sql<number>`count(*)` })
    .from(holdDiscounts)
    .innerJoin(holds, eq(holds.id, holdDiscounts.holdId))
    .where(
      and(
        eq(holdDiscounts.discountCodeId, p('discountCodeId')),
        isNull(holdDiscounts.returnedAt),
        eq(holds.userId, p('userId')),
        eq(holds.slotId, p('slotId')),
        sql`${holds.status} = 'active'`,
      ),
    )
    .prepare(),
  takeUse: db
    .update(discountCodes)
    .set({ uses: sql`${discountCodes.uses} + 1` })
    .where(
      and(
        eq(discountCodes.id, p('id')),
        sql`(${discountCodes.maxUses} is null or ${discountCodes.uses} < ${discountCodes.maxUses})`,
      ),
    )
    .prepare(),
  giveBackUse: db
    .update(discountCodes)
    .set({ uses: sql`${discountCodes.uses} - 1` })
    .where(and(eq(discountCodes.id, p('id')), sql`${discountCodes.uses} > 0`))
    .prepare(),
  insertHoldDiscount: db
    .insert(holdDiscounts)
    .values({
      holdId: p('holdId'),
      discountCodeId: p('discountCodeId'),
      userId: p('userId'),
      discountPaise: p('discountPaise'),
      createdAt: p('createdAt'),
    })
    .prepare(),
  markReturned: db
    .update(holdDiscounts)
    .set({ returnedAt: sql`${p('returnedAt')}` })
    .where(and(eq(holdDiscounts.holdId, p('holdId')), isNull(holdDiscounts.returnedAt)))
    .returning({ discountCodeId: holdDiscounts.discountCodeId })
    .prepare(),
}));
