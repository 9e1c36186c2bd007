/**
 * Part refunds through Razorpay (ADR 0043), msw standing in for api.razorpay.com: the refund API gets
 * the part's amount (not the payment's) with the part's idempotency key; a lost answer leaves the part
 * pending, and Razorpay's refund.processed webhook, whose notes name the part, finishes it without
 * touching the payment's whole refund.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { account, signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';

const API = 'https://api.razorpay.com/v1';
const KEYS = { keyId: 'rzp_test_abc123', keySecret: 'key_secret_xyz', webhookSecret: 'whsec_789' };

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

/** Every part refund, read on the engine the app runs on. */
const partsOf = (t: TestApp) => t.deps.db.select().from(tablesOf(t.deps.db).refundParts);

it('asks Razorpay for the part amount once; its webhook finishes a part whose answer was lost', async () => {
  mswServer.use(
    http.post(`${API}/orders`, async ({ request }) => {
      const body = (await request.json()) as object;
      return HttpResponse.json({ id: 'order_RzpPart000001', entity: 'order', ...body, status: 'created' });
    }),
  );
  const organiser = await account(t, 'organiser');
  const ev = await createTicketedEventOn(t.deps.db);
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  const buyer = await signedInUser(t);
  await proceed(t, buyer.cookie, ev, 2);
  const signature = createHmac('sha256', KEYS.keySecret)
    .update('order_RzpPart000001|pay_RzpPart000001')
    .digest('hex');
  const booked = await callProcedure(
    t,
    'mutation',
    'payments.confirm',
    { orderId: 'order_RzpPart000001', paymentId: 'pay_RzpPart000001', signature },
    { cookie: buyer.cookie },
  );
  const bookingId = (booked.data as { bookingId: string }).bookingId;

  // Razorpay refunds it but the answer never arrives.
  const asked: { body: unknown; key: string | null }[] = [];
  mswServer.use(
    http.post(`${API}/payments/pay_RzpPart000001/refund`, async ({ request }) => {
      asked.push({ body: await request.json(), key: request.headers.get('x-refund-idempotency') });
      return HttpResponse.error();
    }),
  );
  const res = await callProcedure(
    t,
    'mutation',
    'eventBookings.refundPart',
    { eventId: ev.eventId, bookingId, amountPaise: 12_345, reason: 'Late start' },
    { cookie: organiser.cookie },
  );
  expect(res.status).toBe(200);
  const [part, ...others] = await partsOf(t);
  expect(others).toEqual([]);
  expect(part).toMatchObject({ status: 'pending', attempts: 1 });
  expect(asked).toEqual([
    {
      body: { amount: 12_345, notes: { reason: 'partial_refund', refund_part: part!.id } },
      key: `refund-${part!.id}`,
    },
  ]);

  // Razorpay's webhook about it: the part is done; the payment's whole refund (none) is not touched.
  const body = JSON.stringify({
    entity: 'event',
    event: 'refund.processed',
    contains: ['refund'],
    payload: {
      refund: {
        entity: {
          id: 'rfnd_RzpPart000001',
          payment_id: 'pay_RzpPart000001',
          amount: 12_345,
          status: 'processed',
          notes: { reason: 'partial_refund', refund_part: part!.id },
        },
      },
    },
    created_at: 1,
  });
  const hook = await t.request('/api/webhooks/razorpay', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': createHmac('sha256', KEYS.webhookSecret).update(body).digest('hex'),
      'x-razorpay-event-id': 'evt_RzpPart000001',
    },
    body,
  });
  expect(hook.status).toBe(200);
  expect(await partsOf(t)).toMatchObject([{ status: 'processed', gatewayRefundId: 'rfnd_RzpPart000001' }]);
  expect(await t.deps.db.select().from(tablesOf(t.deps.db).refunds)).toEqual([]);
});
