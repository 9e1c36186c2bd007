import { createHmac } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { rows } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createRazorpayGateway } from '../../src-server/integrations/razorpay/gateway.ts';
import { GatewayError } from '../../src-server/services/payments/gateway.ts';
import { paymentGatewayOf } from '../../src-server/services/payments/gateway-of.ts';
import { reconcilePayments } from '../../src-server/services/payments/reconcile.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { countOfOn, createTicketedEventOn, expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';

const API = 'https://api.razorpay.com/v1';
const KEYS = { keyId: 'rzp_test_abc123', keySecret: 'key_secret_xyz', webhookSecret: 'whsec_789' };
const basicAuth = `Basic ${Buffer.from(`${KEYS.keyId}:${KEYS.keySecret}`).toString('base64')}`;

describe('the Razorpay adapter (msw standing in for api.razorpay.com)', () => {
  const gateway = createRazorpayGateway(KEYS);

  it('creates an order with the amount in paise, INR, receipt and notes, authenticated with the keys', async () => {
    let seen: { auth: string | null; body: unknown } | undefined;
    mswServer.use(
      http.post(`${API}/orders`, async ({ request }) => {
        seen = { auth: request.headers.get('authorization'), body: await request.json() };
        return HttpResponse.json({
          id: 'order_RzpTest000001',
          entity: 'order',
          amount: 21_179,
          currency: 'INR',
          receipt: 'ticket_1_evt',
          status: 'created',
        });
      }),
    );
    const order = await gateway.createOrder({
      amountPaise: 21_179,
      currency: 'INR',
      receipt: 'ticket_1_evt',
      notes: { event_id: 'evt' },
    });
    expect(order).toEqual({
      id: 'order_RzpTest000001',
      amountPaise: 21_179,
      currency: 'INR',
      receipt: 'ticket_1_evt',
      status: 'created',
    });
    expect(seen?.auth).toBe(basicAuth);
    expect(seen?.body).toEqual({
      amount: 21_179,
      currency: 'INR',
      receipt: 'ticket_1_evt',
      notes: { event_id: 'evt' },
    });
  });

  it('refunds a payment and reads back the refund', async () => {
    let body: unknown;
    mswServer.use(
      http.post(`${API}/payments/pay_RzpTest000001/refund`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({
          id: 'rfnd_RzpTest000001',
          entity: 'refund',
          amount: 21_179,
          payment_id: 'pay_RzpTest000001',
          status: 'processed',
        });
      }),
    );
    const refund = await gateway.refundPayment('pay_RzpTest000001', 21_179, { reason: 'seats_unavailable' });
    expect(refund).toEqual({
      id: 'rfnd_RzpTest000001',
      paymentId: 'pay_RzpTest000001',
      amountPaise: 21_179,
      status: 'processed',
    });
    expect(body).toEqual({ amount: 21_179, notes: { reason: 'seats_unavailable' } });
  });

  it('sends a refund’s idempotency key as X-Refund-Idempotency, with the account’s credentials', async () => {
    const seen: { key: string | null; auth: string | null }[] = [];
    mswServer.use(
      http.post(`${API}/payments/pay_RzpTest000002/refund`, ({ request }) => {
        seen.push({
          key: request.headers.get('x-refund-idempotency'),
          auth: request.headers.get('authorization'),
        });
        return HttpResponse.json({
          id: 'rfnd_RzpTest000002',
          entity: 'refund',
          amount: 500,
          payment_id: 'pay_RzpTest000002',
          status: 'processed',
        });
      }),
    );
    await gateway.refundPayment('pay_RzpTest000002', 500, {}, { idempotencyKey: 'refund-3f2a9c1e-0001' });
    await gateway.refundPayment('pay_RzpTest000002', 500, {});
    expect(seen.map((s) => s.key)).toEqual(['refund-3f2a9c1e-0001', null]);
    expect(seen.every((s) => s.auth?.startsWith('Basic '))).toBe(true);
  });

  it('lists the payments of an order', async () => {
    mswServer.use(
      http.get(`${API}/orders/order_RzpTest000001/payments`, () =>
        HttpResponse.json({
          entity: 'collection',
          count: 1,
          items: [
            {
              id: 'pay_1',
              order_id: 'order_RzpTest000001',
              amount: 500,
              currency: 'INR',
              status: 'captured',
              amount_refunded: 0,
            },
          ],
        }),
      ),
    );
    expect(await gateway.fetchOrderPayments('order_RzpTest000001')).toEqual([
      {
        id: 'pay_1',
        orderId: 'order_RzpTest000001',
        amountPaise: 500,
        currency: 'INR',
        status: 'captured',
        amountRefundedPaise: 0,
        errorDescription: null,
      },
    ]);
  });

  it('turns an API error into a GatewayError with Razorpay’s description', async () => {
    mswServer.use(
      http.post(`${API}/orders`, () =>
        HttpResponse.json(
          {
            error: {
              code: 'BAD_REQUEST_ERROR',
              description: 'Authentication failed',
              source: 'NA',
              reason: 'NA',
            },
          },
          { status: 401 },
        ),
      ),
    );
    const err = await gateway
      .createOrder({ amountPaise: 100, currency: 'INR', receipt: 'r', notes: {} })
      .catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ kind: 'api', status: 401, message: 'Authentication failed' });
  });

  it('turns a network failure into a GatewayError of kind network', async () => {
    mswServer.use(http.post(`${API}/payments/pay_x/refund`, () => HttpResponse.error()));
    const err = await gateway.refundPayment('pay_x', 100, {}).catch((e) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.kind).toBe('network');
  });

  it('verifies checkout and webhook signatures with the key and webhook secrets', () => {
    const signature = createHmac('sha256', KEYS.keySecret).update('order_1|pay_1').digest('hex');
    expect(gateway.verifyPaymentSignature({ orderId: 'order_1', paymentId: 'pay_1', signature })).toBe(true);
    expect(gateway.verifyPaymentSignature({ orderId: 'order_2', paymentId: 'pay_1', signature })).toBe(false);
    const body = '{"event":"payment.captured"}';
    expect(
      gateway.verifyWebhookSignature(
        body,
        createHmac('sha256', KEYS.webhookSecret).update(body).digest('hex'),
      ),
    ).toBe(true);
    expect(gateway.verifyWebhookSignature(body, signature)).toBe(false);
  });
});

describe('checkout with Razorpay configured', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), {
      RAZORPAY_KEY_ID: KEYS.keyId,
      RAZORPAY_KEY_SECRET: KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: KEYS.webhookSecret,
    });
  });
  afterEach(async () => {
    await expectInventoryInvariantOn(t.deps.db);
    await t.close();
  });

  // The one row of a table the test expects, read on the engine the app runs on.
  const onlyRow = <K extends 'paymentOrders' | 'bookings' | 'refunds'>(table: K) =>
    runStatements(t.deps.db, function* (db) {
      const all = yield* rows(db.select().from(tablesOf(db)[table]));
      expect(all).toHaveLength(1);
      return all[0] as (typeof all)[number];
    });

  it('chooses Razorpay and tells the browser its key', async () => {
    expect(paymentGatewayOf(t.deps).name).toBe('razorpay');
    const res = await callProcedure(t, 'query', 'payments.config');
    expect(res.data).toEqual({ gateway: 'razorpay', keyId: KEYS.keyId });
  });

  it('opens a Razorpay order for the held amount and books the signed result', async () => {
    mswServer.use(
      http.post(`${API}/orders`, async ({ request }) => {
        const body = (await request.json()) as { amount: number; currency: string; receipt: string };
        return HttpResponse.json({ id: 'order_RzpFlow000001', entity: 'order', ...body, status: 'created' });
      }),
    );
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1);
    expect(session).toMatchObject({
      gateway: 'razorpay',
      keyId: KEYS.keyId,
      orderId: 'order_RzpFlow000001',
      amountPaise: 105_899,
    });
    expect(await onlyRow('paymentOrders')).toMatchObject({
      gateway: 'razorpay',
      amountPaise: 105_899,
    });

    const signature = createHmac('sha256', KEYS.keySecret)
      .update('order_RzpFlow000001|pay_RzpFlow000001')
      .digest('hex');
    const res = await callProcedure(
      t,
      'mutation',
      'payments.confirm',
      { orderId: 'order_RzpFlow000001', paymentId: 'pay_RzpFlow000001', signature },
      { cookie: buyer.cookie },
    );
    expect(res.data).toMatchObject({ outcome: 'booked' });
    expect((await onlyRow('bookings')).paymentId).toBe('pay_RzpFlow000001');
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ sold: 1, held: 0 });
  });

  it('keeps a refund pending when Razorpay is unreachable, and refunds once it answers', async () => {
    let orderCount = 0;
    mswServer.use(
      http.post(`${API}/orders`, async ({ request }) => {
        orderCount += 1;
        const body = (await request.json()) as object;
        return HttpResponse.json({
          id: `order_RzpLate00000${orderCount}`,
          entity: 'order',
          ...body,
          status: 'created',
        });
      }),
      http.post(`${API}/payments/pay_RzpLate000001/refund`, () => HttpResponse.error(), { once: true }),
    );
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1 }],
    });
    const late = await signedInUser(t);
    const session = await proceed(t, late.cookie, ev, 1);
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: session.holdId, reason: 'cancelled' },
      { cookie: late.cookie },
    );
    const quick = await signedInUser(t);
    const quickSession = await proceed(t, quick.cookie, ev, 1);
    const sign = (o: string, p: string) =>
      createHmac('sha256', KEYS.keySecret).update(`${o}|${p}`).digest('hex');
    await callProcedure(
      t,
      'mutation',
      'payments.confirm',
      {
        orderId: quickSession.orderId,
        paymentId: 'pay_RzpQuick00001',
        signature: sign(quickSession.orderId, 'pay_RzpQuick00001'),
      },
      { cookie: quick.cookie },
    );

    const res = await callProcedure(
      t,
      'mutation',
      'payments.confirm',
      {
        orderId: session.orderId,
        paymentId: 'pay_RzpLate000001',
        signature: sign(session.orderId, 'pay_RzpLate000001'),
      },
      { cookie: late.cookie },
    );
    expect(res.data).toMatchObject({ outcome: 'refunded' });
    expect(await onlyRow('refunds')).toMatchObject({ status: 'pending', attempts: 1 });

    mswServer.use(
      http.get(`${API}/payments/pay_RzpLate000001`, () =>
        HttpResponse.json({
          id: 'pay_RzpLate000001',
          order_id: session.orderId,
          amount: session.amountPaise,
          currency: 'INR',
          status: 'captured',
          amount_refunded: 0,
        }),
      ),
      http.post(`${API}/payments/pay_RzpLate000001/refund`, () =>
        HttpResponse.json({
          id: 'rfnd_RzpLate000001',
          entity: 'refund',
          amount: session.amountPaise,
          payment_id: 'pay_RzpLate000001',
          status: 'processed',
        }),
      ),
      http.get(`${API}/orders/:orderId/payments`, () =>
        HttpResponse.json({ entity: 'collection', count: 0, items: [] }),
      ),
    );
    t.clock.advance(61_000);
    await reconcilePayments(t.deps);
    expect(await onlyRow('refunds')).toMatchObject({
      status: 'processed',
      gatewayRefundId: 'rfnd_RzpLate000001',
    });
  });
});
