import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { priceBreakdown } from '../../shared/pricing.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import {
  ORDER_ALREADY_PAID,
  simulatePayment,
  simulatorPaymentEntity,
  simulatorSecrets,
} from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import {
  confirm,
  expectEveryCapturedPaymentSettledOnceOn,
  lateSecondCapture,
  proceed,
  startInput,
  tableRows,
} from '../helpers/checkout-flow.ts';
import { type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Payment integrity against an attacker who controls the browser (and so the callback and the request
 * bodies) and can post to the webhook endpoint, but holds neither the gateway's key secret nor its
 * webhook secret. Stripe's and Razorpay's rules: verify every signature on the server over data the
 * server chose, price on the server, settle each payment id exactly once.
 * Complements test/integration/{payments,webhooks,checkout}.test.ts, which cover the happy paths and
 * the simplest forgeries.
 */

const BOOKING_FAILED = 'Failed to complete booking. Please contact support.';
const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest('hex');

describe('payment integrity', () => {
  let t: TestApp;
  let buyer: Person;
  let ev: TicketedEvent;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    buyer = await signedInUser(t);
    ev = await createTicketedEventOn(t.deps.db);
  });
  afterEach(async () => {
    await simulatorWebhooksDelivered(t.deps);
    await expectInventoryInvariantOn(t.deps.db);
    await expectEveryCapturedPaymentSettledOnceOn(t);
    await t.close();
  });

  const bookingRows = () => tableRows(t, 'bookings');
  const holdStatus = async (holdId: string) => {
    const { holds } = tablesOf(t.deps.db);
    return (await t.deps.db.select().from(holds).where(eq(holds.id, holdId)))[0]?.status;
  };
  const confirmationMails = async () =>
    (await tableRows(t, 'outbox')).filter((m) => m.idempotencyKey.startsWith('booking-confirmed'));

  function webhook(body: object) {
    const raw = JSON.stringify({ entity: 'event', ...body, created_at: 1 });
    return {
      raw,
      post: (signature: string | null, eventId: string | null = null) =>
        t.request('/api/webhooks/razorpay', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(signature === null ? {} : { 'x-razorpay-signature': signature }),
            ...(eventId === null ? {} : { 'x-razorpay-event-id': eventId }),
          },
          body: raw,
        }),
    };
  }

  it('refuses every forged checkout signature, and books nothing until the genuine one', async () => {
    const session = await proceed(t, buyer.cookie, ev, 2);
    const paid = await simulatePayment(t.deps, session.orderId);
    const { keySecret, webhookSecret } = simulatorSecrets(t.deps.appSecret);
    const order = paid.razorpay_order_id;
    const payment = paid.razorpay_payment_id;
    const forgeries: Record<string, string> = {
      'random hex': 'ab'.repeat(32),
      zeros: '0'.repeat(64),
      'signed with the webhook secret': hmac(webhookSecret, `${order}|${payment}`),
      'signed with the app secret': hmac(t.deps.appSecret, `${order}|${payment}`),
      'fields swapped': hmac(keySecret, `${payment}|${order}`),
      'no separator': hmac(keySecret, `${order}${payment}`),
      'another payment id': hmac(keySecret, `${order}|pay_Other000000000`),
      truncated: paid.razorpay_signature.slice(0, 63),
      extended: `${paid.razorpay_signature}00`,
      base64: Buffer.from(paid.razorpay_signature, 'hex').toString('base64'),
      'not hex': 'z'.repeat(64),
    };
    for (const [label, signature] of Object.entries(forgeries)) {
      const res = await confirm(t, buyer.cookie, { ...paid, razorpay_signature: signature });
      expect(res.status, label).toBe(400);
      expect(res.body.error?.message, label).toBe(BOOKING_FAILED);
    }
    // A genuine signature does not carry over to a payment id the attacker made up.
    const madeUp = await confirm(t, buyer.cookie, { ...paid, razorpay_payment_id: 'pay_MadeUp00000000' });
    expect(madeUp.status).toBe(400);
    expect(await bookingRows()).toEqual([]);
    expect(await holdStatus(session.holdId)).toBe('active');

    expect((await confirm(t, buyer.cookie, paid)).status).toBe(200);
    expect(await bookingRows()).toHaveLength(1);
  });

  it('refuses forged webhooks for a payment that never happened, and records nothing', async () => {
    const session = await proceed(t, buyer.cookie, ev, 2);
    const { keySecret, webhookSecret } = simulatorSecrets(t.deps.appSecret);
    const entity = {
      id: 'pay_NeverPaid000000',
      entity: 'payment',
      amount: session.amountPaise,
      currency: 'INR',
      status: 'captured',
      order_id: session.orderId,
    };
    for (const event of ['payment.captured', 'order.paid', 'payment.authorized']) {
      const forged = webhook({ event, payload: { payment: { entity } } });
      const other = webhook({ event: 'payment.failed', payload: {} });
      const attempts: Record<string, string | null> = {
        'no signature': null,
        empty: '',
        'wrong secret': hmac('guessed-secret', forged.raw),
        'the key secret instead of the webhook secret': hmac(keySecret, forged.raw),
        'the app secret': hmac(t.deps.appSecret, forged.raw),
        'a genuine signature of another body': hmac(webhookSecret, other.raw),
        'upper-case garbage': 'F'.repeat(64),
      };
      for (const [label, signature] of Object.entries(attempts)) {
        const res = await forged.post(signature, `evt_forged_${label.length}`);
        expect(res.status, `${event}: ${label}`).toBe(400);
        expect(await res.json()).toEqual({ error: { message: 'Invalid signature' } });
      }
    }
    expect(await bookingRows()).toEqual([]);
    expect(await tableRows(t, 'webhookEvents')).toEqual([]);
    expect(await tableRows(t, 'refunds')).toEqual([]);
    expect(await holdStatus(session.holdId)).toBe('active');
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ held: 2, sold: 0 });
  });

  it('a captured genuine delivery replayed (same id, new ids, no id, both events) books once and mails once', async () => {
    const session = await proceed(t, buyer.cookie, ev, 2);
    const paid = await simulatePayment(t.deps, session.orderId);
    const entity = await simulatorPaymentEntity(t.deps.db, paid.razorpay_payment_id);
    const { webhookSecret } = simulatorSecrets(t.deps.appSecret);
    const captured = webhook({ event: 'payment.captured', payload: { payment: { entity } } });
    const orderPaid = webhook({
      event: 'order.paid',
      payload: { payment: { entity }, order: { entity: { id: session.orderId } } },
    });
    const sign = (d: { raw: string }) => hmac(webhookSecret, d.raw);

    const first = await captured.post(sign(captured), 'evt_genuine0001');
    expect(await first.json()).toEqual({ status: 'processed', event: 'payment.captured' });
    expect(await (await captured.post(sign(captured), 'evt_genuine0001')).json()).toEqual({
      status: 'duplicate',
    });
    // The event id header is not covered by the signature: an attacker may change it. Still one booking.
    for (let i = 0; i < 5; i++) {
      expect((await captured.post(sign(captured), `evt_replayed_${i}`)).status).toBe(200);
    }
    expect((await captured.post(sign(captured), null)).status).toBe(200);
    expect((await captured.post(sign(captured), null)).status).toBe(200);
    expect((await orderPaid.post(sign(orderPaid), 'evt_orderpaid01')).status).toBe(200);
    // And the browser's own callback, late.
    expect((await confirm(t, buyer.cookie, paid)).status).toBe(200);

    expect(await bookingRows()).toHaveLength(1);
    expect(await confirmationMails()).toHaveLength(1);
    expect(await tableRows(t, 'refunds')).toEqual([]);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({
      sold: 2,
      held: 0,
      available: 48,
    });
  });

  it('prices on the server: a tampered amount, price, fee or total from the client changes nothing', async () => {
    const honest = await proceed(t, buyer.cookie, ev, 2);
    const expected = priceBreakdown(2 * 99_999, null).grandTotalPaise;
    expect(honest.amountPaise).toBe(expected);
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: honest.holdId, reason: 'cancelled' },
      { cookie: buyer.cookie },
    );

    const input = startInput(ev, 2);
    const tampered = await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        ...input,
        amount: 100,
        amountPaise: 100,
        totalPrice: 1,
        totalAmount: 1,
        platformFeeRate: 0,
        currency: 'USD',
        selectedTickets: [
          { ...input.selectedTickets[0], price: 1, pricePaise: 1, personAllowedPerTicket: 9 },
        ],
      },
      { cookie: buyer.cookie },
    );
    expect(tampered.status, JSON.stringify(tampered.body)).toBe(200);
    const session = tampered.data as { orderId: string; amountPaise: number; currency: string };
    expect(session.amountPaise).toBe(expected);
    expect(session.currency).toBe('INR');
    // What the gateway was asked to charge and what the server will accept agree with the server's price.
    const { paymentOrders, simulatorOrders, bookings } = tablesOf(t.deps.db);
    const [order] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.id, session.orderId));
    expect(order).toMatchObject({ amountPaise: expected, currency: 'INR' });
    const [gatewayOrder] = await t.deps.db
      .select()
      .from(simulatorOrders)
      .where(eq(simulatorOrders.id, session.orderId));
    expect(gatewayOrder).toMatchObject({ amountPaise: expected, currency: 'INR' });

    const paid = await simulatePayment(t.deps, session.orderId);
    const booked = await confirm(t, buyer.cookie, paid);
    const [row] = await t.deps.db
      .select()
      .from(bookings)
      .where(eq(bookings.id, (booked.data as { bookingId: string }).bookingId));
    expect(row).toMatchObject({
      totalAmountPaise: expected,
      subtotalAmountPaise: 2 * 99_999,
      totalUserAllowed: 2,
    });
  });

  it('refuses a tampered ticket type or quantity, holding nothing', async () => {
    const other = await createTicketedEventOn(t.deps.db);
    const offSale = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Closed', pricePaise: 100, totalTickets: 10, isLive: false }],
    });
    const input = startInput(ev, 1);
    const line = input.selectedTickets[0]!;
    const cases: [string, object, number][] = [
      [
        'a ticket type of another event',
        { selectedTickets: [{ ...line, ticketTypeId: other.ticketTypeIds[0] }] },
        404,
      ],
      ['a slot of another event', { selectedSlot: other.slotId }, 404],
      ['a date of another event', { selectedDate: other.dateId }, 404],
      ['an unknown ticket type', { selectedTickets: [{ ...line, ticketTypeId: 'tt-nope' }] }, 404],
      ['more than 10 of a type', { selectedTickets: [{ ...line, quantity: 11 }] }, 400],
      [
        'the same type twice to pass 10',
        {
          selectedTickets: [
            { ...line, quantity: 10 },
            { ...line, quantity: 10 },
          ],
        },
        400,
      ],
      ['zero tickets', { selectedTickets: [{ ...line, quantity: 0 }] }, 400],
      ['negative tickets', { selectedTickets: [{ ...line, quantity: -3 }] }, 400],
      ['a fraction', { selectedTickets: [{ ...line, quantity: 1.5 }] }, 400],
      ['a quantity as text', { selectedTickets: [{ ...line, quantity: '2' }] }, 400],
    ];
    for (const [label, change, status] of cases) {
      const res = await callProcedure(
        t,
        'mutation',
        'payments.start',
        { ...input, ...change },
        { cookie: buyer.cookie },
      );
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(status);
    }
    const closed = await callProcedure(t, 'mutation', 'payments.start', startInput(offSale, 1), {
      cookie: buyer.cookie,
    });
    expect(closed.status).toBe(409);
    expect(closed.body.error?.message).toBe('Closed: Sold Out');

    expect(await tableRows(t, 'holds')).toEqual([]);
    expect(await tableRows(t, 'paymentOrders')).toEqual([]);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 50, held: 0 });
  });

  it('one payment cannot pay for two holds; a second payment on a booked order is refunded, not booked', async () => {
    const second = await createTicketedEventOn(t.deps.db);
    const a = await proceed(t, buyer.cookie, ev, 2);
    const b = await proceed(t, buyer.cookie, second, 2);
    const paidA = await simulatePayment(t.deps, a.orderId);

    // The result for A presented for B: the signature covers A's order id.
    const onB = await confirm(t, buyer.cookie, { ...paidA, razorpay_order_id: b.orderId });
    expect(onB.status).toBe(400);
    expect(onB.body.error?.message).toBe(BOOKING_FAILED);
    expect((await confirm(t, buyer.cookie, paidA)).status).toBe(200);

    // Even a correctly signed gateway event naming A's payment under B's order books nothing more.
    const { webhookSecret } = simulatorSecrets(t.deps.appSecret);
    const entity = {
      ...(await simulatorPaymentEntity(t.deps.db, paidA.razorpay_payment_id)),
      order_id: b.orderId,
    };
    const crossed = webhook({ event: 'payment.captured', payload: { payment: { entity } } });
    expect((await crossed.post(hmac(webhookSecret, crossed.raw), 'evt_crossed001')).status).toBe(200);
    expect((await bookingRows()).map((r) => r.paymentId)).toEqual([paidA.razorpay_payment_id]);
    expect(await holdStatus(b.holdId)).toBe('active');

    // A second captured payment on A (Razorpay's rare late UPI success on a paid order) is refunded in
    // full, never booked. The simulator's own Pay refuses it (the next test); the gateway's books hold it.
    const paidAgain = await lateSecondCapture(t, a.orderId);
    const again = await confirm(t, buyer.cookie, paidAgain);
    expect(again.status).toBe(200);
    expect(again.data).toMatchObject({ outcome: 'refunded', amountPaise: a.amountPaise });
    expect(await bookingRows()).toHaveLength(1);
    expect(await tableRows(t, 'refunds')).toMatchObject([
      { paymentId: paidAgain.razorpay_payment_id, reason: 'duplicate_payment', status: 'processed' },
    ]);
    expect(await confirmationMails()).toHaveLength(1);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ sold: 2, held: 0 });

    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: b.holdId, reason: 'cancelled' },
      { cookie: buyer.cookie },
    );
  });

  it('the simulator refuses a Pay on an order it already marked paid, as Razorpay does, also when two race', async () => {
    const session = await proceed(t, buyer.cookie, ev, 2);
    const pay = () => t.request(`/api/simulator/orders/${session.orderId}/pay`, { method: 'POST' });
    // A Pay cut off with its server, retried on another: the retry must not take the money again.
    const first = await pay();
    expect(first.status).toBe(200);
    const again = await pay();
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: ORDER_ALREADY_PAID,
        source: 'business',
        step: 'payment_initiation',
        reason: 'order_already_paid',
        metadata: { order_id: session.orderId },
      },
    });
    const { simulatorPayments } = tablesOf(t.deps.db);
    const paymentsOf = (orderId: string) =>
      t.deps.db.select().from(simulatorPayments).where(eq(simulatorPayments.orderId, orderId));
    expect(await paymentsOf(session.orderId)).toHaveLength(1);

    // Two Pays at once on a fresh order: one payment, one refusal.
    const other = await proceed(t, buyer.cookie, await createTicketedEventOn(t.deps.db), 1);
    const both = await Promise.all(
      [0, 1].map(() => t.request(`/api/simulator/orders/${other.orderId}/pay`, { method: 'POST' })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await paymentsOf(other.orderId)).toHaveLength(1);

    await simulatorWebhooksDelivered(t.deps);
    expect((await bookingRows()).map((b) => b.orderId).sort()).toEqual(
      [session.orderId, other.orderId].sort(),
    );
    expect(await tableRows(t, 'refunds')).toEqual([]);
  });

  it("someone else's genuine result cannot confirm the attacker's own hold, nor the victim's", async () => {
    const attacker = await signedInUser(t);
    const victim = await proceed(t, buyer.cookie, ev, 1);
    const own = await proceed(t, attacker.cookie, ev, 1);
    const paidVictim = await simulatePayment(t.deps, victim.orderId);

    const onOwn = await confirm(t, attacker.cookie, { ...paidVictim, razorpay_order_id: own.orderId });
    expect(onOwn.status).toBe(400);
    const onVictims = await confirm(t, attacker.cookie, paidVictim);
    expect(onVictims.status).toBe(404);
    expect(await bookingRows()).toEqual([]);

    expect((await confirm(t, buyer.cookie, paidVictim)).status).toBe(200);
    expect((await bookingRows()).map((r) => r.userId)).toEqual([buyer.userId]);
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: own.holdId, reason: 'cancelled' },
      { cookie: attacker.cookie },
    );
  });
});
