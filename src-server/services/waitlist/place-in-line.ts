import { and, eq, lt, sql } from 'drizzle-orm';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/**
 * 1 for the next in line: the waiting entries of the ticket type that joined before this one, plus one.
 * Two counts (earlier instants, then the same instant with a smaller id, the order offers follow), each
 * read from waitlist_entries_queue_idx alone. Written once for both engines (ADR 0045); PostgreSQL
 * answers a count as text.
 */
export function* placeInLineSteps(
  db: DbOrTx,
  entry: { id: string; ticketTypeId: string; createdAt: string },
): Steps<number> {
  const { waitlistEntries } = tablesOf(db);
  const count = (joined: ReturnType<typeof and>) =>
    row(
      db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(waitlistEntries)
        .where(
          and(
            eq(waitlistEntries.ticketTypeId, entry.ticketTypeId),
            sql`${waitlistEntries.status} = 'waiting'`,
            joined,
          ),
        ),
    );
  const earlier = (yield* count(lt(waitlistEntries.createdAt, entry.createdAt)))?.n ?? 0;
  const sameInstant =
    (yield* count(and(eq(waitlistEntries.createdAt, entry.createdAt), lt(waitlistEntries.id, entry.id))))
      ?.n ?? 0;
  return earlier + sameInstant + 1;
}
