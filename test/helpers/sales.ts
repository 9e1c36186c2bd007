import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../src-server/db/client.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { changes, row, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { TicketedEvent } from './inventory.ts';
import type { TestApp } from './test-app.ts';

/** `count` copies of an event's booking as confirmed orders of their own, a second apart from `from`. */
function seededRows<Booking extends object>(
  template: Booking,
  ev: TicketedEvent,
  count: number,
  from: string,
) {
  const start = new Date(from).getTime();
  return Array.from({ length: count }, (_, i) => ({
    ...template,
    id: `JBSEED${String(i).padStart(6, '0')}`,
    paymentId: `pay_seed_${i}`,
    orderId: `order_seed_${i}`,
    slotId: ev.slotId,
    userName: `Seeded Buyer ${i}`,
    userEmail: `seeded${i}@example.com`,
    status: 'confirmed' as const,
    createdAt: new Date(start + i * 1000).toISOString(),
  }));
}

/**
 * What an organiser's cancellation with a full refund writes (a cancelled booking, its seats back, a
 * processed refund of its payment), written directly, on either engine (ADR 0045).
 */
export async function cancelWithFullRefundOn(t: TestApp, bookingId: string): Promise<void> {
  const at = t.clock.now().toISOString();
  await runnerFor(t.deps.db).write((tx) => cancelWithFullRefundSteps(tx, bookingId, at));
}

/** The cancellation's rows, on the engine of `tx`. */
function* cancelWithFullRefundSteps(tx: DbOrTx, bookingId: string, at: string): Steps<void> {
  const { bookings: table, ticketTypes: types, refunds: refundRows } = tablesOf(tx);
  const booking = (yield* row(tx.select().from(table).where(eq(table.id, bookingId))))!;
  yield* changes(tx.update(table).set({ status: 'cancelled' }).where(eq(table.id, bookingId)));
  for (const line of booking.ticketTypes) {
    yield* changes(
      tx
        .update(types)
        .set({ availableTickets: sql`${types.availableTickets} + ${line.quantity}` })
        .where(eq(types.id, line.id)),
    );
  }
  yield* changes(
    tx.insert(refundRows).values({
      id: `rf-${bookingId}`,
      paymentId: booking.paymentId,
      orderId: booking.orderId,
      userId: booking.userId,
      amountPaise: booking.totalAmountPaise,
      reason: 'cancelled by the organiser',
      status: 'processed',
      createdAt: at,
      updatedAt: at,
    }),
  );
}

/** `count` confirmed orders of one Gold ticket each, a second apart from `from`, written directly, on either engine. */
export async function seedOrdersOn(t: TestApp, ev: TicketedEvent, count: number, from: string) {
  const { bookings: table } = tablesOf(t.deps.db);
  const [template] = await t.deps.db.select().from(table).where(eq(table.eventId, ev.eventId)).limit(1);
  const rows = seededRows(template!, ev, count, from);
  for (let i = 0; i < rows.length; i += 500) await t.deps.db.insert(table).values(rows.slice(i, i + 500));
}
