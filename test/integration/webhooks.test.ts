import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import {
  simulateFailure,
  simulatePayment,
  simulatorPaymentEntity,
  simulatorSecrets,
} from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { sweepExpiredHolds } from '../../src-server/services/inventory/holds.ts';
import { reconcilePayments } from '../../src-server/services/payments/reconcile.ts';
import {
  expectEveryCapturedPaymentSettledOnceOn,
  payWithSimulator,
  proceed,
  tableRows,
} from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { countOfOn, createTicketedEventOn, expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

function signedDelivery(t: TestApp, event: string, payload: object, eventId: string, secret?: string) {
  const body = JSON.stringify({
    entity: 'event',
    event,
    contains: Object.keys(payload),
    payload,
    created_at: 1,
  });
  const key = secret ?? simulatorSecrets(t.deps.appSecret).webhookSecret;
  return {
    body,
    send: (overrides: { body?: string; signature?: string } = {}) =>
      t.request('/api/webhooks/razorpay', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': overrides.signature ?? createHmac('sha256', key).update(body).digest('hex'),
          'x-razorpay-event-id': eventId,
        },
        body: overrides.body ?? body,
      }),
  };
}

describe('POST /api/webhooks/razorpay', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await simulatorWebhooksDelivered(t.deps);
    await expectInventoryInvariantOn(t.deps.db);
    await expectEveryCapturedPaymentSettledOnceOn(t);
    await t.close();
  });

  async function paidOrder(quantity = 2) {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, quantity);
    const paid = await simulatePayment(t.deps, session.orderId);
    const payment = await simulatorPaymentEntity(t.deps.db, paid.razorpay_payment_id);
    return { ev, buyer, session, paid, payment };
  }

  it('books a payment the browser never reported, from the simulator’s own webhooks', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    const paid = await payWithSimulator(t, session.orderId, true);
    const [booking] = await tableRows(t, 'bookings');
    expect(booking?.paymentId).toBe(paid.razorpay_payment_id);
    expect((await tableRows(t, 'webhookEvents')).map((e) => e.event).sort()).toEqual([
      'order.paid',
      'payment.captured',
    ]);
  });

  it('acknowledges a replayed delivery without acting twice', async () => {
    const { ev, payment } = await paidOrder();
    const delivery = signedDelivery(t, 'payment.captured', { payment: { entity: payment } }, 'evt_replay01');
    const first = await delivery.send();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'processed', event: 'payment.captured' });
    const replay = await delivery.send();
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ status: 'duplicate' });
    expect(await tableRows(t, 'bookings')).toHaveLength(1);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ sold: 2, held: 0 });
  });

  it('handles events out of order: order.paid first, then payment.captured, then the browser', async () => {
    const { buyer, payment, paid } = await paidOrder();
    const orderPaid = signedDelivery(
      t,
      'order.paid',
      { payment: { entity: payment }, order: { entity: { id: payment.order_id } } },
      'evt_order01',
    );
    const captured = signedDelivery(t, 'payment.captured', { payment: { entity: payment } }, 'evt_capt01');
    const failedEarlier = signedDelivery(
      t,
      'payment.failed',
      { payment: { entity: { ...payment, status: 'failed' } } },
      'evt_fail01',
    );
    expect(await (await orderPaid.send()).json()).toMatchObject({ status: 'processed' });
    // A failure event for an earlier attempt that arrives late must not undo the booking or free its seats.
    expect(await (await failedEarlier.send()).json()).toMatchObject({ status: 'ignored' });
    expect(await (await captured.send()).json()).toMatchObject({ status: 'processed' });
    const booking = await tableRows(t, 'bookings');
    expect(booking).toHaveLength(1);
    expect((await tableRows(t, 'holds'))[0]?.status).toBe('converted');
    const res = await callProcedure(
      t,
      'mutation',
      'payments.confirm',
      {
        orderId: paid.razorpay_order_id,
        paymentId: paid.razorpay_payment_id,
        signature: paid.razorpay_signature,
      },
      { cookie: buyer.cookie },
    );
    expect(res.data).toEqual({ outcome: 'booked', bookingId: booking[0]!.id });
  });

  it('books nothing on a signed payment.captured or order.paid whose payment is only authorized or failed', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    const failure = await simulateFailure(t.deps, session.orderId, 'Your card was declined');
    const failed = await simulatorPaymentEntity(t.deps.db, failure.metadata.payment_id);
    const authorized = {
      ...failed,
      id: 'pay_authorizedonly01',
      status: 'authorized',
      error_description: null,
    };
    const deliveries = [failed, authorized].flatMap((entity) =>
      ['payment.captured', 'order.paid'].map((event) =>
        signedDelivery(
          t,
          event,
          { payment: { entity }, order: { entity: { id: session.orderId } } },
          `evt_${entity.status}_${event}`,
        ),
      ),
    );
    for (const delivery of deliveries) {
      const res = await delivery.send();
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ignored' });
    }
    expect(await tableRows(t, 'bookings')).toEqual([]);
    expect(await tableRows(t, 'refunds')).toEqual([]);
    expect((await tableRows(t, 'holds'))[0]?.status).toBe('active');
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ held: 2, sold: 0 });
  });

  it('rejects a forged signature, a tampered body and a missing signature', async () => {
    const { payment } = await paidOrder();
    const forged = signedDelivery(
      t,
      'payment.captured',
      { payment: { entity: payment } },
      'evt_forged1',
      'not-the-secret',
    );
    expect((await forged.send()).status).toBe(400);
    const genuine = signedDelivery(t, 'payment.captured', { payment: { entity: payment } }, 'evt_tamper1');
    const tampered = genuine.body.replace(`"amount":${payment.amount}`, '"amount":1');
    expect(tampered).not.toBe(genuine.body);
    expect((await genuine.send({ body: tampered })).status).toBe(400);
    const missing = await t.request('/api/webhooks/razorpay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: genuine.body,
    });
    expect(missing.status).toBe(400);
    expect(await tableRows(t, 'bookings')).toHaveLength(0);
    expect(await tableRows(t, 'webhookEvents')).toHaveLength(0);
    // The same event, correctly signed, is still accepted afterwards.
    expect((await genuine.send()).status).toBe(200);
    expect(await tableRows(t, 'bookings')).toHaveLength(1);
  });

  it('refunds a captured payment whose amount differs from the order instead of booking it', async () => {
    const { payment, ev } = await paidOrder();
    const odd = { ...payment, amount: payment.amount - 100 };
    const delivery = signedDelivery(t, 'payment.captured', { payment: { entity: odd } }, 'evt_odd001');
    expect((await delivery.send()).status).toBe(200);
    expect(await tableRows(t, 'bookings')).toHaveLength(0);
    expect((await tableRows(t, 'refunds'))[0]).toMatchObject({
      reason: 'amount_mismatch',
      amountPaise: odd.amount,
    });
    expect((await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).held).toBe(2);
    t.clock.advance(421_000);
    // Nothing else books that payment later: the hold simply expires.
    await sweepExpiredHolds(t.deps.db, t.clock.now());
  });

  it('issues a refund again, once, when the bank returns it (refund.failed)', async () => {
    const { payment } = await paidOrder();
    const odd = { ...payment, amount: payment.amount - 100 };
    await signedDelivery(t, 'payment.captured', { payment: { entity: odd } }, 'evt_odd002').send();
    const [first] = await tableRows(t, 'refunds');
    if (!first) throw new Error('no refund');
    expect(first).toMatchObject({ status: 'processed', amountPaise: odd.amount });
    const { simulatorPayments } = tablesOf(t.deps.db);
    const refundedAtGateway = async () =>
      (await t.deps.db.select().from(simulatorPayments).where(eq(simulatorPayments.id, payment.id)))[0]
        ?.amountRefundedPaise;

    // A report about some other, superseded refund changes nothing.
    const stale = { refund: { entity: { id: 'rfnd_someother', payment_id: payment.id } } };
    await signedDelivery(t, 'refund.failed', stale, 'evt_rfail0').send();
    expect((await tableRows(t, 'refunds'))[0]?.status).toBe('processed');

    // The bank sends the money back: the gateway shows nothing refunded and reports our refund failed.
    await t.deps.db
      .update(simulatorPayments)
      .set({ status: 'captured', amountRefundedPaise: 0 })
      .where(eq(simulatorPayments.id, payment.id));
    const returned = { refund: { entity: { id: first.gatewayRefundId, payment_id: payment.id } } };
    expect((await signedDelivery(t, 'refund.failed', returned, 'evt_rfail1').send()).status).toBe(200);
    expect((await tableRows(t, 'refunds'))[0]?.status).toBe('pending');

    t.clock.advance(15 * 60_000);
    await reconcilePayments(t.deps);
    const [reissued] = await tableRows(t, 'refunds');
    if (!reissued) throw new Error('no refund');
    expect(reissued.status).toBe('processed');
    expect(reissued.gatewayRefundId).not.toBe(first.gatewayRefundId);
    expect(await refundedAtGateway()).toBe(odd.amount);

    // Later passes find nothing left to do: never a second refund.
    t.clock.advance(15 * 60_000);
    await reconcilePayments(t.deps);
    expect(await refundedAtGateway()).toBe(odd.amount);
    await sweepExpiredHolds(t.deps.db, t.clock.now());
  });

  it('ignores a payment for an order the app never opened (the test page)', async () => {
    const res = await t.request('/api/create-order', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1_000_000, currency: 'INR' }),
    });
    const { order_id } = (await res.json()) as { order_id: string };
    const paid = await simulatePayment(t.deps, order_id);
    const payment = await simulatorPaymentEntity(t.deps.db, paid.razorpay_payment_id);
    const delivery = signedDelivery(t, 'payment.captured', { payment: { entity: payment } }, 'evt_test01');
    expect(await (await delivery.send()).json()).toEqual({ status: 'ignored', event: 'payment.captured' });
    // Test-page payments are outside bookings: take it off the settled-once check.
    const { simulatorPayments } = tablesOf(t.deps.db);
    await t.deps.db.delete(simulatorPayments).where(eq(simulatorPayments.id, paid.razorpay_payment_id));
  });
});
