import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { events } from '../../src-server/db/schema/catalog.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { refunds } from '../../src-server/db/schema/payments.ts';
import type { PaymentGateway } from '../../src-server/services/payments/gateway.ts';
import { confirm, payWithSimulator, proceed } from './checkout-flow.ts';
import type { TicketedEvent } from './inventory.ts';
import type { TestApp } from './test-app.ts';
import { createSignedInUser } from './users.ts';

/**
 * A buyer books `quantity` tickets through the real Proceed → simulator → confirm flow, with the given
 * ticket details (else inventory.ts's DETAILS); `waitForWebhooks` also lets the simulator's webhooks land;
 * `extra` goes into payments.start's input as it is (a discount code).
 */
export async function buyTickets(t: TestApp, ev: TicketedEvent, quantity = 2, options: BuyOptions = {}) {
  return buyAs(t, createSignedInUser(t), ev, quantity, options);
}

export interface BuyOptions {
  ticketDetails?: object;
  waitForWebhooks?: boolean;
  extra?: object;
}

/** `buyer` books `quantity` tickets through Proceed → simulator → confirm (HTTP: either engine). */
export async function buyAs<Buyer extends { cookie: string }>(
  t: TestApp,
  buyer: Buyer,
  ev: TicketedEvent,
  quantity: number,
  options: BuyOptions,
) {
  const extra = {
    ...(options.ticketDetails ? { ticketDetails: options.ticketDetails } : {}),
    ...options.extra,
  };
  const session = await proceed(t, buyer.cookie, ev, quantity, extra);
  const paid = await payWithSimulator(t, session.orderId, options.waitForWebhooks);
  const res = await confirm(t, buyer.cookie, paid);
  expect(res.data).toMatchObject({ outcome: 'booked' });
  const bookingId = (res.data as { bookingId: string }).bookingId;
  return { buyer, bookingId, paymentId: paid.razorpay_payment_id, session };
}

/** The event's current version (every console edit carries it). */
export function versionOf(t: TestApp, eventId: string): number {
  return t.deps.db.select({ v: events.version }).from(events).where(eq(events.id, eventId)).get()!.v;
}

export function mailKeys(t: TestApp): string[] {
  return t.deps.db
    .select({ key: outbox.idempotencyKey })
    .from(outbox)
    .all()
    .map((m) => m.key);
}

export function mailOf(t: TestApp, key: string) {
  return t.deps.db.select().from(outbox).where(eq(outbox.idempotencyKey, key)).get();
}

export function refundOf(t: TestApp, paymentId: string) {
  return t.deps.db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).get();
}

/**
 * Wraps the test app's gateway: counts refund calls and lets a test make the next ones fail, hang,
 * or be made by the gateway with the answer lost.
 */
export function watchRefunds(t: TestApp) {
  const real = t.deps.paymentGateway!;
  const faults: ('fail' | 'lost-answer' | 'hang')[] = [];
  const calls: { paymentId: string; idempotencyKey?: string }[] = [];
  const gateway: PaymentGateway = {
    ...real,
    name: real.name,
    keyId: real.keyId,
    createOrder: (i) => real.createOrder(i),
    fetchPayment: (id) => real.fetchPayment(id),
    fetchOrderPayments: (id) => real.fetchOrderPayments(id),
    capturePayment: (id, a, c) => real.capturePayment(id, a, c),
    verifyPaymentSignature: (r) => real.verifyPaymentSignature(r),
    verifyWebhookSignature: (b, s) => real.verifyWebhookSignature(b, s),
    async refundPayment(paymentId, amountPaise, notes, options) {
      calls.push({ paymentId, idempotencyKey: options?.idempotencyKey });
      const fault = faults.shift();
      if (fault === 'fail') throw new Error('Gateway answered 502');
      if (fault === 'hang') return new Promise(() => {});
      // Like a slow gateway: the answer takes a moment, so concurrent runners overlap.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const refund = await real.refundPayment(paymentId, amountPaise, notes, options);
      if (fault === 'lost-answer') throw new Error('socket hang up');
      return refund;
    },
  };
  t.deps.paymentGateway = gateway;
  return { calls, faults };
}
