import { and, eq, or, sql } from 'drizzle-orm';
import { waitlistEntries } from '../../db/schema/on-sale.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/** 1 for the next in line: the waiting entries of the ticket type that joined before this one, plus one. */
export function placeInLine(
  db: Pick<DbOrTx, 'select'>,
  entry: { id: string; ticketTypeId: string; createdAt: string },
): number {
  const row = db
    .select({ ahead: sql<number>`count(*)` })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.ticketTypeId, entry.ticketTypeId),
        sql`${waitlistEntries.status} = 'waiting'`,
        or(
          sql`${waitlistEntries.createdAt} < ${entry.createdAt}`,
          and(eq(waitlistEntries.createdAt, entry.createdAt), sql`${waitlistEntries.id} < ${entry.id}`),
        ),
      ),
    )
    .get();
  return (row?.ahead ?? 0) + 1;
}
