import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { changes, row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { releaseHoldSteps } from '../inventory/holds.ts';
import { endWaitlistsOfSlotsSteps } from '../waitlist/waitlist-job.ts';

/** cancelSlotsInSteps in SQLite's synchronous write transaction. */
export function cancelSlotsIn(tx: WriteTx, slotIds: string[], now: Date): void {
  runSync(cancelSlotsInSteps(tx, slotIds, now));
}

/**
 * Stops all selling on these slots inside the caller's transaction: marks them cancelled, takes their
 * ticket types off sale (the reservation's conditional UPDATE requires is_live, so a Proceed already
 * under way cannot hold a seat any more) and releases every active hold (seats back to available).
 * The confirmed bookings are cancelled and refunded afterwards, batch by batch
 * (services/bookings/cancel-bookings-of-cancelled-slots.ts).
 */
export function* cancelSlotsInSteps(tx: WriteTx, slotIds: string[], now: Date): Steps<void> {
  if (slotIds.length === 0) return;
  const { holds, slots, ticketTypes } = tablesOf(tx);
  yield* changes(
    tx
      .update(slots)
      .set({ cancelledAt: now.toISOString() })
      .where(and(inArray(slots.id, slotIds), isNull(slots.cancelledAt))),
  );
  yield* changes(tx.update(ticketTypes).set({ isLive: false }).where(inArray(ticketTypes.slotId, slotIds)));
  yield* endWaitlistsOfSlotsSteps(tx, slotIds, now);
  const active = yield* rows(
    tx
      .select({ id: holds.id })
      .from(holds)
      .where(and(inArray(holds.slotId, slotIds), sql`${holds.status} = 'active'`)),
  );
  for (const hold of active) yield* releaseHoldSteps(tx, hold.id, 'slot_cancelled', now);
}

/** How many confirmed bookings (and how much money) cancelling these slots would refund. */
export function* confirmedBookingsOfSteps(tx: Pick<WriteTx, 'select'>, slotIds: string[]) {
  if (slotIds.length === 0) return { bookings: 0, amountPaise: 0 };
  const { bookings } = tablesOf(tx);
  const found = yield* row(
    tx
      .select({
        bookings: sql<number>`count(*)`,
        amountPaise: sql<number>`coalesce(sum(${bookings.totalAmountPaise}), 0)`,
      })
      .from(bookings)
      .where(and(inArray(bookings.slotId, slotIds), eq(bookings.status, 'confirmed'))),
  );
  // PostgreSQL answers a count and a sum as text (bigint, numeric).
  return { bookings: Number(found?.bookings ?? 0), amountPaise: Number(found?.amountPaise ?? 0) };
}
