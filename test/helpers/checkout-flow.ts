import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { type Tables, tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatorSecrets } from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { hmacSha256Hex, paymentSignaturePayload } from '../../src-server/services/payments/signatures.ts';
import { DETAILS, type TicketedEvent } from './inventory.ts';
import type { TestApp } from './test-app.ts';
import { callProcedure } from './trpc-http.ts';

export function startInput(ev: TicketedEvent, quantity: number, typeIndex = 0) {
  return {
    eventId: ev.eventId,
    selectedDate: ev.dateId,
    selectedSlot: ev.slotId,
    selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[typeIndex]!, quantity }],
    ticketDetails: DETAILS,
  };
}

/** Proceed through the real procedure; fails the test unless the hold and order were made. */
export async function proceed(
  t: TestApp,
  cookie: string,
  ev: TicketedEvent,
  quantity = 2,
  extra: object = {},
) {
  const res = await callProcedure(
    t,
    'mutation',
    'payments.start',
    { ...startInput(ev, quantity), ...extra },
    { cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data as CheckoutSession;
}

export interface PaidResult {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

/**
 * The buyer presses Pay in the simulator's dialog. The simulator's webhooks are left in flight unless
 * `waitForWebhooks` is set (then they are delivered before this returns).
 */
export async function payWithSimulator(
  t: TestApp,
  orderId: string,
  waitForWebhooks = false,
): Promise<PaidResult> {
  const res = await t.request(`/api/simulator/orders/${orderId}/pay`, { method: 'POST' });
  expect(res.status).toBe(200);
  const paid = (await res.json()) as PaidResult;
  if (waitForWebhooks) await simulatorWebhooksDelivered(t.deps);
  return paid;
}

export async function confirm(t: TestApp, cookie: string, paid: PaidResult) {
  return callProcedure(
    t,
    'mutation',
    'payments.confirm',
    {
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    },
    { cookie },
  );
}

/**
 * A second captured payment on an order the simulator already marked paid, with its signed result: what
 * real Razorpay rarely does (a late UPI success on a paid order), and what the simulator's Pay refuses.
 * Written into the simulator's books directly, as the gateway would report it.
 */
export async function lateSecondCapture(t: TestApp, orderId: string): Promise<PaidResult> {
  // The engine's own tables (ADR 0045): files run on both engines use it too.
  const { simulatorOrders: orders, simulatorPayments: payments } = tablesOf(t.deps.db);
  const [order] = await t.deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`no simulator order ${orderId}`);
  const paymentId = `pay_Late${randomBytes(5).toString('hex')}`;
  await t.deps.db.insert(payments).values({
    id: paymentId,
    orderId,
    amountPaise: order.amountPaise,
    currency: order.currency,
    status: 'captured',
    createdAt: t.clock.now().toISOString(),
  });
  const { keySecret } = simulatorSecrets(t.deps.appSecret);
  return {
    razorpay_payment_id: paymentId,
    razorpay_order_id: orderId,
    razorpay_signature: hmacSha256Hex(keySecret, paymentSignaturePayload(orderId, paymentId)),
  };
}

/**
 * Every payment the simulator captured ended as exactly one booking or exactly one refund, on either
 * engine (read through the engine's own tables).
 */
export async function expectEveryCapturedPaymentSettledOnceOn(t: TestApp) {
  const { simulatorPayments, bookings, refunds } = tablesOf(t.deps.db);
  const captured = await t.deps.db
    .select({ id: simulatorPayments.id })
    .from(simulatorPayments)
    .where(inArray(simulatorPayments.status, ['captured', 'refunded']));
  const booked = await t.deps.db.select({ paymentId: bookings.paymentId }).from(bookings);
  const refunded = await t.deps.db.select({ paymentId: refunds.paymentId }).from(refunds);
  for (const { id } of captured) {
    const outcomes = [...booked, ...refunded].filter((o) => o.paymentId === id).length;
    expect(outcomes, `outcomes of ${id}`).toBe(1);
  }
}

type CheckoutTable =
  | 'bookings'
  | 'holds'
  | 'paymentOrders'
  | 'refunds'
  | 'outbox'
  | 'webhookEvents'
  | 'simulatorOrders'
  | 'simulatorPayments';

/** Every row of one of checkout's tables, on the test's engine (`tablesOf`): `await tableRows(t, 'refunds')`. */
export async function tableRows<K extends CheckoutTable>(
  t: TestApp,
  table: K,
): Promise<Tables[K]['$inferSelect'][]> {
  const tables = tablesOf(t.deps.db);
  // Each table is its own type; one select over the union would not type-check, the rows are the table's.
  return (await t.deps.db
    .select()
    .from(tables[table] as Tables['bookings'])) as unknown as Tables[K]['$inferSelect'][];
}
