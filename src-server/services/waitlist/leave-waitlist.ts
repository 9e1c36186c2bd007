import { and, eq, sql } from 'drizzle-orm';
import { WAITLIST_MESSAGES } from '../../../shared/waitlist-schemas.ts';
import type { Db } from '../../db/client.ts';
import { waitlistEntries } from '../../db/schema/on-sale.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';
import type { WaitlistDeps } from './offer-returned-seats.ts';
import { LEFT_REASON, releaseAndPassOn } from './pass-on.ts';

/**
 * "Leave" on My Bookings: the caller's live entry ends. Leaving with an offer releases its hold and the
 * seats pass to the next people in line, in the same transaction. Another account's entry is "not found".
 */
export async function leaveWaitlist(
  deps: WaitlistDeps & { db: Db },
  userId: string,
  entryId: string,
  now: Date,
): Promise<{ left: true }> {
  return writeTransaction(deps.db, (tx) => {
    const entry = tx
      .select()
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.id, entryId),
          eq(waitlistEntries.userId, userId),
          sql`${waitlistEntries.status} in ('waiting', 'offered')`,
        ),
      )
      .get();
    if (!entry) throw notFound(WAITLIST_MESSAGES.notFound);
    if (entry.status === 'offered' && entry.offerHoldId) {
      // Ends the entry as 'left' before the seats are offered on, so it is not offered them again.
      releaseAndPassOn(deps)(tx, entry.offerHoldId, LEFT_REASON, now);
    }
    // A waiting entry, or an offer whose hold had already ended some other way.
    tx.update(waitlistEntries)
      .set({ status: 'left', endedAt: now.toISOString() })
      .where(and(eq(waitlistEntries.id, entry.id), sql`${waitlistEntries.status} in ('waiting', 'offered')`))
      .run();
    return { left: true as const };
  });
}
