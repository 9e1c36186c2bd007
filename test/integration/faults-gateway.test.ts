import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createRazorpayGateway } from '../../src-server/integrations/razorpay/gateway.ts';
import { LATE_PAYMENT_REFUNDED_MESSAGE } from '../../src-server/services/payments/confirm.ts';
import { reconcilePayments } from '../../src-server/services/payments/reconcile.ts';
import { startInput, tableRows } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import {
  createFakeRazorpay,
  FAKE_RAZORPAY_KEYS,
  type FakeRazorpay,
  type RazorpayFault,
} from '../helpers/fault-razorpay.ts';
import {
  countOfOn,
  createTicketedEventOn,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';

const ORDER_FAILED = 'Failed to create order. Please try again.';

/**
 * Issue 7, Faults: Razorpay (msw standing in for api.razorpay.com, with its own books) is down, slow
 * or loses its answer when an order is opened, a payment captured or checked, or a refund made.
 */
describe('payment gateway down or slow', () => {
  let t: TestApp;
  let razorpay: FakeRazorpay;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), {
      RAZORPAY_KEY_ID: FAKE_RAZORPAY_KEYS.keyId,
      RAZORPAY_KEY_SECRET: FAKE_RAZORPAY_KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: FAKE_RAZORPAY_KEYS.webhookSecret,
    });
    razorpay = createFakeRazorpay();
    mswServer.use(...razorpay.handlers);
  });
  afterEach(async () => {
    razorpay.releaseSlowCalls();
    await expectInventoryInvariantOn(t.deps.db);
    // Whatever Razorpay captured ended as one booking or one refund made exactly once.
    const { bookings } = tablesOf(t.deps.db);
    for (const payment of razorpay.payments.values()) {
      if (payment.status === 'authorized') continue;
      const booked = await t.deps.db.select().from(bookings).where(eq(bookings.paymentId, payment.id));
      const refunded = razorpay.refunds.filter((r) => r.payment_id === payment.id);
      expect(booked.length + refunded.length, `outcomes of ${payment.id}`).toBe(1);
    }
    await t.close();
  });

  function start(cookie: string, ev: TicketedEvent, quantity = 2) {
    return callProcedure(t, 'mutation', 'payments.start', startInput(ev, quantity), { cookie });
  }

  function confirmPaid(cookie: string, paid: { orderId: string; paymentId: string; signature: string }) {
    return callProcedure(t, 'mutation', 'payments.confirm', paid, { cookie });
  }

  /** The reconciler's next run, a minute and a bit later. */
  async function reconcileLater() {
    t.clock.advance(61_000);
    return reconcilePayments(t.deps);
  }

  /** The reconciler's run after a failed refund's back-off (30 s, 1 min, 2 min, … after each failure). */
  async function reconcileAfterBackoff() {
    t.clock.advance(5 * 60_000);
    return reconcilePayments(t.deps);
  }

  it.each<RazorpayFault>(['network', 'server-error', 'lost-answer'])(
    'order creation meets %s: the buyer is told, no seat is held, and Proceed works once Razorpay does',
    async (fault) => {
      const ev = await createTicketedEventOn(t.deps.db);
      const buyer = await signedInUser(t);
      razorpay.fail('create-order', fault);
      const refused = await start(buyer.cookie, ev);
      expect(refused.status).toBe(412);
      expect(refused.body.error?.message).toBe(ORDER_FAILED);
      expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 50, held: 0 });
      expect(await tableRows(t, 'holds')).toEqual([]);
      expect(await tableRows(t, 'paymentOrders')).toEqual([]);

      const retried = await start(buyer.cookie, ev);
      expect(retried.status).toBe(200);
      expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 48, held: 2 });
      expect(await tableRows(t, 'paymentOrders')).toHaveLength(1);
    },
  );

  it('order creation gets no answer at all: after the time-out the buyer is told and no seat is held', async () => {
    t.deps.paymentGateway = createRazorpayGateway(FAKE_RAZORPAY_KEYS, { timeoutMs: 300 });
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    razorpay.fail('create-order', 'slow');
    const refused = await start(buyer.cookie, ev);
    expect(refused.body.error?.message).toBe(ORDER_FAILED);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 50, held: 0 });

    const retried = await start(buyer.cookie, ev);
    expect(retried.status).toBe(200);
  });

  it('a refund Razorpay refuses, cannot be reached for, or does without answering is made exactly once by the reconciler', async () => {
    // The buyer dismissed the window, the last seat was sold, then the payment went through anyway.
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1 }],
    });
    const late = await signedInUser(t);
    const lateSession = (await start(late.cookie, ev, 1)).data as { orderId: string; holdId: string };
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: lateSession.holdId, reason: 'cancelled' },
      { cookie: late.cookie },
    );
    const quick = await signedInUser(t);
    const quickSession = (await start(quick.cookie, ev, 1)).data as { orderId: string };
    const quickPaid = razorpay.pay(quickSession.orderId);
    expect((await confirmPaid(quick.cookie, quickPaid)).data).toMatchObject({ outcome: 'booked' });
    const paid = razorpay.pay(lateSession.orderId);

    // Razorpay answers 500 to the refund: the buyer is still told the payment comes back.
    razorpay.fail('refund', 'server-error');
    const answer = await confirmPaid(late.cookie, paid);
    expect(answer.data).toEqual({
      outcome: 'refunded',
      paymentId: paid.paymentId,
      amountPaise: paid.payment.amount,
      message: LATE_PAYMENT_REFUNDED_MESSAGE,
    });
    const refund = async () => (await tableRows(t, 'refunds')).find((r) => r.paymentId === paid.paymentId);
    expect(await refund()).toMatchObject({ status: 'pending', attempts: 1 });

    // Next run: Razorpay cannot be reached to check the payment. Then: it refunds but the answer is lost.
    razorpay.fail('fetch-payment', 'network');
    await reconcileAfterBackoff();
    expect(await refund()).toMatchObject({ status: 'pending', attempts: 2 });
    razorpay.fail('refund', 'lost-answer');
    await reconcileAfterBackoff();
    expect(await refund()).toMatchObject({ status: 'pending', attempts: 3 });
    expect(razorpay.refunds).toHaveLength(1);

    // The run after sees the money already refunded and does not refund again.
    await reconcileAfterBackoff();
    expect(await refund()).toMatchObject({ status: 'processed', attempts: 4, lastError: null });
    await reconcileAfterBackoff();
    expect(razorpay.refunds).toEqual([
      expect.objectContaining({ payment_id: paid.paymentId, amount: paid.payment.amount }),
    ]);
    expect(razorpay.payments.get(paid.paymentId)).toMatchObject({ status: 'refunded' });
    expect(razorpay.calls.filter((c) => c.route === 'refund')).toHaveLength(2);
  });

  it('a refund that times out is checked before it is tried again, and made once', async () => {
    t.deps.paymentGateway = createRazorpayGateway(FAKE_RAZORPAY_KEYS, { timeoutMs: 300 });
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1 }],
    });
    const late = await signedInUser(t);
    const lateSession = (await start(late.cookie, ev, 1)).data as { orderId: string; holdId: string };
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: lateSession.holdId, reason: 'failed' },
      { cookie: late.cookie },
    );
    const quick = await signedInUser(t);
    const quickSession = (await start(quick.cookie, ev, 1)).data as { orderId: string };
    await confirmPaid(quick.cookie, razorpay.pay(quickSession.orderId));
    const paid = razorpay.pay(lateSession.orderId);

    razorpay.fail('refund', 'slow');
    expect((await confirmPaid(late.cookie, paid)).data).toMatchObject({ outcome: 'refunded' });
    const refund = async () => (await tableRows(t, 'refunds')).find((r) => r.paymentId === paid.paymentId);
    expect(await refund()).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await refund())?.lastError).toContain('did not answer');

    await reconcileLater();
    expect(await refund()).toMatchObject({ status: 'processed', attempts: 2 });
    expect(razorpay.refunds).toHaveLength(1);
  });

  it('Razorpay down when the reconciler asks about an open order: the order stays open and is booked on a later run', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = (await start(buyer.cookie, ev)).data as { orderId: string };
    // Paid, but the browser closed and the webhook never came.
    const paid = razorpay.pay(session.orderId);
    razorpay.down('order-payments', 'server-error');
    expect(await reconcileLater()).toMatchObject({ ordersChecked: 0, paymentsSettled: 0 });
    expect(await reconcileLater()).toMatchObject({ ordersChecked: 0, paymentsSettled: 0 });
    expect((await tableRows(t, 'paymentOrders'))[0]?.status).toBe('created');
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ held: 2, sold: 0 });

    razorpay.up('order-payments');
    expect(await reconcileLater()).toMatchObject({ ordersChecked: 1, paymentsSettled: 1 });
    expect((await tableRows(t, 'bookings'))[0]?.paymentId).toBe(paid.paymentId);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ held: 0, sold: 2 });
  });

  it('Razorpay down when a webhook asks to capture: answered 500 so Razorpay re-delivers, then booked once', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = (await start(buyer.cookie, ev)).data as { orderId: string };
    const paid = razorpay.pay(session.orderId, 'authorized');
    const webhook = razorpay.signedWebhook('payment.authorized', { payment: { entity: paid.payment } });
    const deliver = () =>
      t.request('/api/webhooks/razorpay', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': webhook.signature,
          'x-razorpay-event-id': 'evt_authorized_1',
        },
        body: webhook.body,
      });

    razorpay.fail('capture', 'network');
    const first = await deliver();
    expect(first.status).toBe(500);
    expect(await first.json()).toEqual({ error: { message: 'Something went wrong. Please try again.' } });
    expect(await tableRows(t, 'bookings')).toEqual([]);

    const second = await deliver();
    expect(await second.json()).toEqual({ status: 'processed', event: 'payment.authorized' });
    expect(await (await deliver()).json()).toEqual({ status: 'duplicate' });
    expect(await tableRows(t, 'bookings')).toHaveLength(1);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ held: 0, sold: 2 });
  });
});
