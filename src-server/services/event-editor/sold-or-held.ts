import { and, eq, sql } from 'drizzle-orm';
import { holdItems, holds } from '../../db/schema/payments.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

/**
 * Whether anything was ever held or bought from the slot, the date or the ticket type: every booking
 * began as a hold, and holds and bookings keep pointing at them, so such rows are stopped, not deleted.
 */
export function hasBookings(
  tx: WriteTx,
  target: { slotId: string } | { eventDateId: string } | { ticketTypeId: string },
): boolean {
  const query =
    'ticketTypeId' in target
      ? tx.select({ one: sql`1` }).from(holdItems).where(eq(holdItems.ticketTypeId, target.ticketTypeId))
      : 'slotId' in target
        ? tx.select({ one: sql`1` }).from(holds).where(eq(holds.slotId, target.slotId))
        : tx.select({ one: sql`1` }).from(holds).where(eq(holds.eventDateId, target.eventDateId));
  return query.limit(1).get() !== undefined;
}

/** Tickets of a type in active holds right now (sold = total − available − held). */
export function heldQuantity(tx: WriteTx, ticketTypeId: string): number {
  const row = tx
    .select({ held: sql<number>`coalesce(sum(${holdItems.quantity}), 0)` })
    .from(holdItems)
    .innerJoin(holds, eq(holds.id, holdItems.holdId))
    .where(and(eq(holdItems.ticketTypeId, ticketTypeId), eq(holds.status, 'active')))
    .get();
  return row?.held ?? 0;
}
