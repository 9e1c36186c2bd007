import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema/bookings.ts';
import { slots, ticketTypes } from '../../db/schema/catalog.ts';
import { holds } from '../../db/schema/payments.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { releaseHoldIn } from '../inventory/holds.ts';
import { endWaitlistsOfSlots } from '../waitlist/waitlist-job.ts';

/**
 * Stops all selling on these slots inside the caller's transaction: marks them cancelled, takes their
 * ticket types off sale (the reservation's conditional UPDATE requires is_live, so a Proceed already
 * under way cannot hold a seat any more) and releases every active hold (seats back to available).
 * The confirmed bookings are cancelled and refunded afterwards, batch by batch
 * (services/bookings/cancel-bookings-of-cancelled-slots.ts).
 */
export function cancelSlotsIn(tx: WriteTx, slotIds: string[], now: Date): void {
  if (slotIds.length === 0) return;
  tx.update(slots)
    .set({ cancelledAt: now.toISOString() })
    .where(and(inArray(slots.id, slotIds), isNull(slots.cancelledAt)))
    .run();
  tx.update(ticketTypes).set({ isLive: false }).where(inArray(ticketTypes.slotId, slotIds)).run();
  endWaitlistsOfSlots(tx, slotIds, now);
  const active = tx
    .select({ id: holds.id })
    .from(holds)
    .where(and(inArray(holds.slotId, slotIds), sql`${holds.status} = 'active'`))
    .all();
  for (const hold of active) releaseHoldIn(tx, hold.id, 'slot_cancelled', now);
}

/** How many confirmed bookings (and how much money) cancelling these slots would refund. */
export function confirmedBookingsOf(tx: Pick<WriteTx, 'select'>, slotIds: string[]) {
  if (slotIds.length === 0) return { bookings: 0, amountPaise: 0 };
  const row = tx
    .select({
      bookings: sql<number>`count(*)`,
      amountPaise: sql<number>`coalesce(sum(${bookings.totalAmountPaise}), 0)`,
    })
    .from(bookings)
    .where(and(inArray(bookings.slotId, slotIds), eq(bookings.status, 'confirmed')))
    .get();
  return { bookings: row?.bookings ?? 0, amountPaise: row?.amountPaise ?? 0 };
}
