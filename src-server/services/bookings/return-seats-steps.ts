import { and, eq, isNull, sql } from 'drizzle-orm';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { WaitlistDeps } from '../waitlist/offer-returned-seats.ts';
import { offerReturnedSeats } from '../waitlist/offer-returned-seats.ts';

/**
 * What a cancellation (whole or of some tickets) gives back, written once for both engines (ADR 0045):
 * seats to their ticket types and those types' shared capacities (ADR 0039), the booking's add-ons not
 * handed over (ADR 0041) and its discount code's use (issue 40).
 *
 * The hold's release gives back the same things through quota-seats.ts and discount-uses.ts's prepared
 * statements, SQLite-only while inventory/holds.ts is converted by its own change; these are the steps
 * the cancellation needs meanwhile, to be folded into those files' steps when the hold's land.
 */
export interface SeatLine {
  ticketTypeId: string;
  quantity: number;
}

/**
 * The lines' seats back on sale: each type's `available_tickets`, then its quotas. Types and quotas in
 * id order, so on PostgreSQL two cancellations (or a cancellation and a hold) lock rows in one order.
 */
export function* returnSeatsSteps(tx: WriteTx, lines: readonly SeatLine[]): Steps<void> {
  const { ticketTypes, quotas, quotaTicketTypes } = tablesOf(tx);
  const sorted = [...lines].filter((l) => l.quantity > 0).sort(byTicketType);
  for (const line of sorted) {
    yield* changes(
      tx
        .update(ticketTypes)
        .set({ availableTickets: sql`${ticketTypes.availableTickets} + ${line.quantity}` })
        .where(eq(ticketTypes.id, line.ticketTypeId)),
    );
  }
  const perQuota = new Map<string, number>();
  for (const line of sorted) {
    const ofType = yield* rows(
      tx
        .select({ quotaId: quotaTicketTypes.quotaId })
        .from(quotaTicketTypes)
        .where(eq(quotaTicketTypes.ticketTypeId, line.ticketTypeId)),
    );
    for (const { quotaId } of ofType) perQuota.set(quotaId, (perQuota.get(quotaId) ?? 0) + line.quantity);
  }
  for (const [quotaId, quantity] of [...perQuota].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    yield* changes(
      tx
        .update(quotas)
        .set({ available: sql`${quotas.available} + ${quantity}` })
        .where(eq(quotas.id, quotaId)),
    );
  }
}

/**
 * A cancelled booking's add-ons go back to stock, except those already handed over at the gate (a
 * T-shirt given is not on sale again). Once per line (`returned_at`), so a second cancel adds nothing.
 */
export function* returnBookingAddOnsSteps(tx: WriteTx, bookingId: string, now: Date): Steps<void> {
  const { bookingAddOns, addOnVariants } = tablesOf(tx);
  const lines = yield* rows(
    tx
      .update(bookingAddOns)
      .set({ returnedAt: now.toISOString() })
      .where(
        and(
          eq(bookingAddOns.bookingId, bookingId),
          isNull(bookingAddOns.returnedAt),
          isNull(bookingAddOns.givenAt),
        ),
      )
      .returning({ variantId: bookingAddOns.variantId, quantity: bookingAddOns.quantity }),
  );
  for (const line of [...lines].sort((a, b) => (a.variantId < b.variantId ? -1 : 1))) {
    yield* changes(
      tx
        .update(addOnVariants)
        .set({ available: sql`${addOnVariants.available} + ${line.quantity}` })
        .where(eq(addOnVariants.id, line.variantId)),
    );
  }
}

/** The hold's discount-code use given back, once (`returned_at`). Returns whether one was given back. */
export function* returnDiscountUseSteps(tx: WriteTx, holdId: string, now: Date): Steps<boolean> {
  const { holdDiscounts, discountCodes } = tablesOf(tx);
  const returned = yield* row(
    tx
      .update(holdDiscounts)
      .set({ returnedAt: now.toISOString() })
      .where(and(eq(holdDiscounts.holdId, holdId), isNull(holdDiscounts.returnedAt)))
      .returning({ discountCodeId: holdDiscounts.discountCodeId }),
  );
  if (!returned) return false;
  yield* changes(
    tx
      .update(discountCodes)
      .set({ uses: sql`${discountCodes.uses} - 1` })
      .where(and(eq(discountCodes.id, returned.discountCodeId), sql`${discountCodes.uses} > 0`)),
  );
  return true;
}

/**
 * Offers a ticket type's returned seats to its waiting list (ADR 0027), inside the cancellation's
 * transaction. A parameter of the cancellation: the offer makes a hold (inventory/holds.ts), which is
 * not written as steps yet.
 */
export type OfferReturnedSeats = (tx: WriteTx, ticketTypeId: string) => Steps<unknown>;

/** SQLite's offer: the synchronous one, which runs on the spot inside `runSync`'s transaction. */
export function offerOnSqlite(deps: WaitlistDeps, now: Date): OfferReturnedSeats {
  // biome-ignore lint/correctness/useYield: runs synchronously on SQLite, inside the caller's transaction.
  return function* (tx, ticketTypeId) {
    return offerReturnedSeats(tx, deps, ticketTypeId, now);
  };
}

/**
 * PostgreSQL's offer until the hold is written as steps: refuses (rolling the cancellation back) when
 * someone is waiting for the type, rather than putting the seats on open sale past them.
 */
export const offerNotOnPostgresYet: OfferReturnedSeats = function* (tx, ticketTypeId) {
  const { waitlistEntries } = tablesOf(tx);
  const waiting = yield* row(
    tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.ticketTypeId, ticketTypeId), eq(waitlistEntries.status, 'waiting')))
      .limit(1),
  );
  if (waiting) {
    throw new Error('Waiting-list offers need the hold written as steps (inventory/holds.ts) on PostgreSQL');
  }
};

function byTicketType(a: SeatLine, b: SeatLine): number {
  return a.ticketTypeId < b.ticketTypeId ? -1 : a.ticketTypeId > b.ticketTypeId ? 1 : 0;
}
