import { and, eq, sql } from 'drizzle-orm';
import { waitlistEntries } from '../../db/schema/on-sale.ts';
import { holdItems } from '../../db/schema/payments.ts';
import { type DbOrTx, type ReleaseIn, releaseHoldIn } from '../inventory/holds.ts';
import { offerReturnedSeats, type WaitlistDeps } from './offer-returned-seats.ts';

/** The release reason of an offer its owner gave up (Leave on My Bookings). */
export const LEFT_REASON = 'waitlist_left';

/**
 * Releases a hold (as `releaseHoldIn`) and, in the same transaction, passes its seats on: if it was a
 * waiting-list offer, the entry ends first ('lapsed' when it ran out, 'left' otherwise, so it is never
 * offered again), then the seats go to the next people waiting for those ticket types. Used wherever
 * seats return: the sweeper, a dismissed checkout, leaving the list.
 */
export function releaseAndPassOn(deps: WaitlistDeps): ReleaseIn {
  return (tx, holdId, reason, now, userId) => {
    const types = tx
      .select({ ticketTypeId: holdItems.ticketTypeId })
      .from(holdItems)
      .where(eq(holdItems.holdId, holdId))
      .all();
    if (!releaseHoldIn(tx, holdId, reason, now, userId)) return false;
    endOfferOfHold(tx, holdId, reason === 'expired' ? 'lapsed' : 'left', now);
    for (const { ticketTypeId } of types) offerReturnedSeats(tx, deps, ticketTypeId, now);
    return true;
  };
}

/** The offer behind a hold that ended unpaid. */
export function endOfferOfHold(tx: DbOrTx, holdId: string, status: 'lapsed' | 'left', now: Date): void {
  tx.update(waitlistEntries)
    .set({ status, endedAt: now.toISOString() })
    .where(and(eq(waitlistEntries.offerHoldId, holdId), sql`${waitlistEntries.status} = 'offered'`))
    .run();
}

/**
 * The offer's hold became a booking (services/payments/confirm.ts): the entry is done. Also after a
 * late payment that took the seats again once the offer had lapsed.
 */
export function markOfferBooked(tx: DbOrTx, holdId: string, now: Date): void {
  tx.update(waitlistEntries)
    .set({ status: 'booked', endedAt: now.toISOString() })
    .where(
      and(eq(waitlistEntries.offerHoldId, holdId), sql`${waitlistEntries.status} in ('offered', 'lapsed')`),
    )
    .run();
}
