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
import { events } from '../../src-server/db/schema/catalog.ts';
import { refundParts } from '../../src-server/db/schema/partial-refunds.ts';
import { refunds } from '../../src-server/db/schema/payments.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';
import { mswServer } from '../mocks/server.ts';

const API = 'https://api.razorpay.com/v1';
const KEYS = { keyId: 'rzp_test_abc123', keySecret: 'key_secret_xyz', webhookSecret: 'whsec_789' };

let t: TestApp;
beforeEach(() => {
  t = createTestApp({
    RAZORPAY_KEY_ID: KEYS.keyId,
    RAZORPAY_KEY_SECRET: KEYS.keySecret,
    RAZORPAY_WEBHOOK_SECRET: KEYS.webhookSecret,
  });
});
afterEach(() => {
  expectInventoryInvariant(t.deps.db);
  t.close();
});

it('asks Razorpay for the part amount once; its webhook finishes a part whose answer was lost', async () => {
  mswServer.use(
    http.post(`${API}/orders`, async ({ request }) => {
      const body = (await request.json()) as object;
      return HttpResponse.json({ id: 'order_RzpPart000001', entity: 'order', ...body, status: 'created' });
    }),
  );
  const organiser = createAccount(t, 'organiser');
  const ev = createTicketedEvent(t.deps.db);
  t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId)).run();
  const buyer = createSignedInUser(t);
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
  const part = t.deps.db.select().from(refundParts).get()!;
  expect(part).toMatchObject({ status: 'pending', attempts: 1 });
  expect(asked).toEqual([
    {
      body: { amount: 12_345, notes: { reason: 'partial_refund', refund_part: part.id } },
      key: `refund-${part.id}`,
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
          notes: { reason: 'partial_refund', refund_part: part.id },
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
  expect(t.deps.db.select().from(refundParts).get()).toMatchObject({
    status: 'processed',
    gatewayRefundId: 'rfnd_RzpPart000001',
  });
  expect(t.deps.db.select().from(refunds).all()).toEqual([]);
});
