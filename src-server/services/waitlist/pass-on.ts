import { and, eq, sql } from 'drizzle-orm';
import { changes, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { type DbOrTx, type ReleaseSteps, releaseHoldSteps } from '../inventory/holds.ts';
import { offerReturnedSeatsSteps, type WaitlistDeps } from './offer-returned-seats.ts';

/** The release reason of an offer its owner gave up (Leave on My Bookings). */
export const LEFT_REASON = 'waitlist_left';

/**
 * Releases a hold (as `releaseHoldSteps`) and, in the same transaction, passes its seats on: if it was a
 * waiting-list offer, the entry ends first ('lapsed' when it ran out, 'left' otherwise, so it is never
 * offered again), then the seats go to the next people waiting for those ticket types. Used wherever
 * seats return: the sweeper (an unanswered offer passing to the next in line), a dismissed checkout,
 * leaving the list.
 */
export function releaseAndPassOn(deps: WaitlistDeps): ReleaseSteps {
  return (tx, holdId, reason, now, userId) => releaseAndPassOnSteps(tx, deps, holdId, reason, now, userId);
}

/**
 * `releaseAndPassOn` written once for both engines (ADR 0045). The release gives the seats back to the
 * hold's types and their quotas (their rows' locks, on PostgreSQL, held to the end), which is what
 * `offerReturnedSeatsSteps` needs of its caller.
 */
export function* releaseAndPassOnSteps(
  tx: DbOrTx,
  deps: WaitlistDeps,
  holdId: string,
  reason: string,
  now: Date,
  userId?: string,
): Steps<boolean> {
  const { holdItems } = tablesOf(tx);
  const types = yield* rows(
    tx.select({ ticketTypeId: holdItems.ticketTypeId }).from(holdItems).where(eq(holdItems.holdId, holdId)),
  );
  if (!(yield* releaseHoldSteps(tx, holdId, reason, now, userId))) return false;
  yield* endOfferOfHoldSteps(tx, holdId, reason === 'expired' ? 'lapsed' : 'left', now);
  for (const { ticketTypeId } of types) yield* offerReturnedSeatsSteps(tx, deps, ticketTypeId, now);
  return true;
}

/** The offer behind a hold that ended unpaid. */
export function endOfferOfHold(tx: DbOrTx, holdId: string, status: 'lapsed' | 'left', now: Date): void {
  runSync(endOfferOfHoldSteps(tx, holdId, status, now));
}

/** `endOfferOfHold` written once for both engines (ADR 0045). */
export function* endOfferOfHoldSteps(
  tx: DbOrTx,
  holdId: string,
  status: 'lapsed' | 'left',
  now: Date,
): Steps<void> {
  const { waitlistEntries } = tablesOf(tx);
  yield* changes(
    tx
      .update(waitlistEntries)
      .set({ status, endedAt: now.toISOString() })
      .where(and(eq(waitlistEntries.offerHoldId, holdId), sql`${waitlistEntries.status} = 'offered'`)),
  );
}

/**
 * The offer's hold became a booking (services/payments/confirm.ts): the entry is done. Also after a
 * late payment that took the seats again once the offer had lapsed.
 */
export function markOfferBooked(tx: DbOrTx, holdId: string, now: Date): void {
  runSync(markOfferBookedSteps(tx, holdId, now));
}

/** `markOfferBooked` written once for both engines (ADR 0045): a step of the confirmation. */
export function* markOfferBookedSteps(tx: DbOrTx, holdId: string, now: Date): Steps<void> {
  const { waitlistEntries } = tablesOf(tx);
  yield* changes(
    tx
      .update(waitlistEntries)
      .set({ status: 'booked', endedAt: now.toISOString() })
      .where(
        and(eq(waitlistEntries.offerHoldId, holdId), sql`${waitlistEntries.status} in ('offered', 'lapsed')`),
      ),
  );
}
