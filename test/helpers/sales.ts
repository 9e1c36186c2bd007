import { eq, sql } from 'drizzle-orm';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { changes, row } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { refunds } from '../../src-server/db/schema/payments.ts';
import type { TicketedEvent } from './inventory.ts';
import type { TestApp } from './test-app.ts';

/**
 * What the refunds work's cancellation writes (a cancelled booking, its seats back, a refund row for the
 * booking's payment), written here directly: the cancellation service lives on another branch.
 */
export function cancelWithFullRefund(t: TestApp, bookingId: string) {
  const booking = t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;
  const at = t.clock.now().toISOString();
  t.deps.db.transaction((tx) => {
    tx.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, bookingId)).run();
    for (const line of booking.ticketTypes) {
      tx.update(ticketTypes)
        .set({ availableTickets: sql`${ticketTypes.availableTickets} + ${line.quantity}` })
        .where(eq(ticketTypes.id, line.id))
        .run();
    }
    tx.insert(refunds)
      .values({
        id: `rf-${bookingId}`,
        paymentId: booking.paymentId,
        orderId: booking.orderId,
        userId: booking.userId,
        amountPaise: booking.totalAmountPaise,
        reason: 'cancelled by the organiser',
        status: 'processed',
        createdAt: at,
        updatedAt: at,
      })
      .run();
  });
}

/** `count` confirmed orders of one Gold ticket each, a second apart from `from`, written directly. */
export function seedOrders(t: TestApp, ev: TicketedEvent, count: number, from: string) {
  const template = t.deps.db.select().from(bookings).where(eq(bookings.eventId, ev.eventId)).get()!;
  const start = new Date(from).getTime();
  const rows = Array.from({ length: count }, (_, i) => ({
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
  for (let i = 0; i < rows.length; i += 500)
    t.deps.db
      .insert(bookings)
      .values(rows.slice(i, i + 500))
      .run();
}

/** `cancelWithFullRefund` on either engine (ADR 0045), for a file run on both (`testEngine()`). */
export async function cancelWithFullRefundOn(t: TestApp, bookingId: string): Promise<void> {
  const at = t.clock.now().toISOString();
  await runnerFor(t.deps.db).write(function* (tx) {
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
  });
}

/** `seedOrders` on either engine. */
export async function seedOrdersOn(t: TestApp, ev: TicketedEvent, count: number, from: string) {
  const { bookings: table } = tablesOf(t.deps.db);
  const [template] = await t.deps.db.select().from(table).where(eq(table.eventId, ev.eventId)).limit(1);
  const start = new Date(from).getTime();
  const rows = Array.from({ length: count }, (_, i) => ({
    ...template!,
    id: `JBSEED${String(i).padStart(6, '0')}`,
    paymentId: `pay_seed_${i}`,
    orderId: `order_seed_${i}`,
    slotId: ev.slotId,
    userName: `Seeded Buyer ${i}`,
    userEmail: `seeded${i}@example.com`,
    status: 'confirmed' as const,
    createdAt: new Date(start + i * 1000).toISOString(),
  }));
  for (let i = 0; i < rows.length; i += 500) await t.deps.db.insert(table).values(rows.slice(i, i + 500));
}
