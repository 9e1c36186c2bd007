import { and, eq } from 'drizzle-orm';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { WaitlistDeps } from '../waitlist/offer-returned-seats.ts';
import { offerReturnedSeats } from '../waitlist/offer-returned-seats.ts';

/**
 * What a cancellation (whole or of some tickets) gives back is given back by the hold's own release
 * steps, written once for both engines (ADR 0045): seats and quotas by `returnSeatsSteps`
 * (inventory/holds.ts), add-ons by `returnBookingAddOnsSteps` (add-ons/add-on-stock.ts), the code's use
 * by `returnDiscountUseSteps` (discounts/discount-uses.ts). What stays here is how the returned seats
 * are offered to a waiting list.
 */

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
