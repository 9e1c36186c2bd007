import { and, eq, sql } from 'drizzle-orm';
import { WAITLIST_MESSAGES } from '../../../shared/waitlist-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import type { WaitlistDeps } from './offer-returned-seats.ts';
import { LEFT_REASON, releaseAndPassOnSteps } from './pass-on.ts';

/**
 * "Leave" on My Bookings: the caller's live entry ends. Leaving with an offer releases its hold and the
 * seats pass to the next people in line, in the same transaction. Another account's entry is "not found".
 * Written once for both engines (ADR 0045).
 */
export async function leaveWaitlist(
  deps: WaitlistDeps & { db: Db },
  userId: string,
  entryId: string,
  now: Date,
): Promise<{ left: true }> {
  return runnerFor(deps.db).write((tx) => leaveWaitlistSteps(tx, deps, userId, entryId, now));
}

function* leaveWaitlistSteps(
  tx: DbOrTx,
  deps: WaitlistDeps,
  userId: string,
  entryId: string,
  now: Date,
): Steps<{ left: true }> {
  const { waitlistEntries } = tablesOf(tx);
  const entry = yield* row(
    tx
      .select({
        id: waitlistEntries.id,
        status: waitlistEntries.status,
        offerHoldId: waitlistEntries.offerHoldId,
      })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.id, entryId),
          eq(waitlistEntries.userId, userId),
          sql`${waitlistEntries.status} in ('waiting', 'offered')`,
        ),
      ),
  );
  if (!entry) throw notFound(WAITLIST_MESSAGES.notFound);
  if (entry.status === 'offered' && entry.offerHoldId) {
    // Ends the entry as 'left' before the seats are offered on, so it is not offered them again.
    yield* releaseAndPassOnSteps(tx, deps, entry.offerHoldId, LEFT_REASON, now);
  }
  // A waiting entry, or an offer whose hold had already ended some other way.
  yield* changes(
    tx
      .update(waitlistEntries)
      .set({ status: 'left', endedAt: now.toISOString() })
      .where(and(eq(waitlistEntries.id, entry.id), sql`${waitlistEntries.status} in ('waiting', 'offered')`)),
  );
  return { left: true as const };
}
