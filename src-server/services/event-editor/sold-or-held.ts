import { and, eq, sql } from 'drizzle-orm';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

/**
 * Whether anything was ever held or bought from the slot, the date or the ticket type: every booking
 * began as a hold, and holds and bookings keep pointing at them, so such rows are stopped, not deleted.
 */
export function* hasBookingsSteps(
  tx: WriteTx,
  target: { slotId: string } | { eventDateId: string } | { ticketTypeId: string },
): Steps<boolean> {
  const { holdItems, holds } = tablesOf(tx);
  const query =
    'ticketTypeId' in target
      ? tx.select({ one: sql`1` }).from(holdItems).where(eq(holdItems.ticketTypeId, target.ticketTypeId))
      : 'slotId' in target
        ? tx.select({ one: sql`1` }).from(holds).where(eq(holds.slotId, target.slotId))
        : tx.select({ one: sql`1` }).from(holds).where(eq(holds.eventDateId, target.eventDateId));
  return (yield* row(query.limit(1))) !== undefined;
}

/** Tickets of a type in active holds right now (sold = total − available − held). */
export function* heldQuantitySteps(tx: WriteTx, ticketTypeId: string): Steps<number> {
  const { holdItems, holds } = tablesOf(tx);
  const found = yield* row(
    tx
      .select({ held: sql<number>`coalesce(sum(${holdItems.quantity}), 0)` })
      .from(holdItems)
      .innerJoin(holds, eq(holds.id, holdItems.holdId))
      .where(and(eq(holdItems.ticketTypeId, ticketTypeId), eq(holds.status, 'active'))),
  );
  return Number(found?.held ?? 0);
}
