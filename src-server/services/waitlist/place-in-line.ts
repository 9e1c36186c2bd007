import { and, eq, lt, sql } from 'drizzle-orm';
import { waitlistEntries } from '../../db/schema/on-sale.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/**
 * 1 for the next in line: the waiting entries of the ticket type that joined before this one, plus one.
 * Two counts (earlier instants, then the same instant with a smaller id, the order offers follow), each
 * read from waitlist_entries_queue_idx alone.
 */
export function placeInLine(
  db: Pick<DbOrTx, 'select'>,
  entry: { id: string; ticketTypeId: string; createdAt: string },
): number {
  const count = (joined: ReturnType<typeof and>) =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.ticketTypeId, entry.ticketTypeId),
          sql`${waitlistEntries.status} = 'waiting'`,
          joined,
        ),
      )
      .get()?.n ?? 0;
  const earlier = count(lt(waitlistEntries.createdAt, entry.createdAt));
  const sameInstant = count(
    and(eq(waitlistEntries.createdAt, entry.createdAt), lt(waitlistEntries.id, entry.id)),
  );
  return earlier + sameInstant + 1;
}
