import { eq } from 'drizzle-orm';
import ical from 'node-ical';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createSimulatorGateway, simulatePayment } from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { sweepExpiredHolds } from '../../src-server/services/inventory/holds.ts';
import { GatewayError, type PaymentGateway } from '../../src-server/services/payments/gateway.ts';
import { reconcilePayments } from '../../src-server/services/payments/reconcile.ts';
import {
  confirm,
  expectEveryCapturedPaymentSettledOnceOn,
  lateSecondCapture,
  payWithSimulator,
  proceed,
  tableRows,
} from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  DETAILS,
  expectInventoryInvariantOn,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

describe('confirming a payment', () => {
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

  it('writes the booking with every §3 field, records it on the user, sells the hold and queues the mail', async () => {
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Couple Pass', pricePaise: 150_000, totalTickets: 20, personAllowedPerTicket: 2 }],
    });
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 3, { userCity: 'Mumbai' });
    const paid = await payWithSimulator(t, session.orderId);
    const res = await confirm(t, buyer.cookie, paid);
    expect(res.status).toBe(200);
    const outcome = res.data as { outcome: string; bookingId: string };
    expect(outcome.outcome).toBe('booked');

    const { bookings, users, outbox } = tablesOf(t.deps.db);
    const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, outcome.bookingId));
    if (!booking) throw new Error('no booking');
    expect(booking).toMatchObject({
      paymentId: paid.razorpay_payment_id,
      orderId: session.orderId,
      eventId: ev.eventId,
      slotId: ev.slotId,
      ticketDate: '2026-12-05T13:30:00.000Z',
      ticketSlot: ev.slotStart,
      ticketSlotEnd: ev.slotEnd,
      ticketCount: 3,
      userId: buyer.userId,
      userName: DETAILS.name,
      // Typed as '+91 98765-43210'; kept as its 10 digits.
      userPhone: '9876543210',
      userEmail: DETAILS.email,
      userState: DETAILS.state,
      userCity: 'Mumbai',
      eventName: ev.eventName,
      eventLocation: 'NSCI Dome, Worli, Mumbai',
      subtotalAmountPaise: 450_000,
      feeAmountPaise: 22_500,
      igstAmountPaise: 4_050,
      totalAmountPaise: 476_550,
      status: 'confirmed',
      isCheckIn: false,
      totalUserAllowed: 6,
      numberOfUserCheckedIn: 0,
      createdAt: t.clock.now().toISOString(),
    });
    expect(booking.ticketType).toMatchObject({
      id: ev.ticketTypeIds[0],
      name: 'Couple Pass',
      pricePaise: 150_000,
      personAllowedPerTicket: 2,
      isRefundable: true,
      totalTickets: 20,
      availableTickets: 17,
      isLive: true,
    });
    expect(booking.ticketTypes).toEqual([
      {
        id: ev.ticketTypeIds[0],
        name: 'Couple Pass',
        pricePaise: 150_000,
        quantity: 3,
        personAllowedPerTicket: 2,
        totalPersons: 6,
      },
    ]);
    const [user] = await t.deps.db.select().from(users).where(eq(users.id, buyer.userId));
    expect(user?.bookingIdsList).toEqual([outcome.bookingId]);
    expect((await tableRows(t, 'holds'))[0]?.status).toBe('converted');
    expect((await tableRows(t, 'paymentOrders'))[0]?.status).toBe('paid');
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({
      available: 17,
      held: 0,
      sold: 3,
    });

    const [mail] = await t.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.idempotencyKey, `booking-confirmed:${outcome.bookingId}`));
    if (!mail) throw new Error('no confirmation mail');
    expect(mail.to).toBe(DETAILS.email);
    expect(mail.subject).toBe(`🎟️ Booking Confirmed - ${ev.eventName}`);
    for (const body of [mail.html, mail.text]) {
      expect(body).toContain(DETAILS.name);
      expect(body).toContain(ev.eventName);
      expect(body).toContain(outcome.bookingId);
      expect(body).toContain('05 Dec 2026');
      expect(body).toContain('7:00 PM - 11:00 PM');
      expect(body).toContain('NSCI Dome, Worli, Mumbai');
      expect(body).toContain('Couple Pass');
      expect(body).toContain('₹1,500.00');
      expect(body).toContain('₹4,765.50');
      expect(body).toContain('support@jalsa.local');
      expect(body).toContain('play.google.com');
      expect(body).toContain('instagram.com');
    }
    expect(mail.text).toContain('3 x ₹1,500.00');

    // The mail carries the booking as a calendar entry starting at the slot's start (7:00 PM India time).
    expect(mail.attachments).toHaveLength(1);
    const [ics] = mail.attachments;
    expect(ics).toMatchObject({ filename: `jalsa-${outcome.bookingId}.ics`, contentType: 'text/calendar' });
    const calendar = ical.sync.parseICS(Buffer.from(ics!.content, 'base64').toString('utf8'));
    const entry = Object.values(calendar).find((c) => c?.type === 'VEVENT') as ical.VEvent;
    expect(entry.start.toISOString()).toBe('2026-12-05T13:30:00.000Z');
    expect(entry.summary).toBe(ev.eventName);
  });

  it('confirmed twice (and by the webhook too) gives one booking', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    const paid = await payWithSimulator(t, session.orderId);
    const [a, b] = await Promise.all([confirm(t, buyer.cookie, paid), confirm(t, buyer.cookie, paid)]);
    await simulatorWebhooksDelivered(t.deps);
    const c = await confirm(t, buyer.cookie, paid);
    const ids = [a, b, c].map((r) => (r.data as { bookingId: string }).bookingId);
    expect(new Set(ids).size).toBe(1);
    expect(await tableRows(t, 'bookings')).toHaveLength(1);
    const { users } = tablesOf(t.deps.db);
    const [user] = await t.deps.db.select().from(users).where(eq(users.id, buyer.userId));
    expect(user?.bookingIdsList).toEqual([ids[0]]);
    expect(
      (await tableRows(t, 'outbox')).filter((m) => m.idempotencyKey.startsWith('booking-confirmed')),
    ).toHaveLength(1);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 48, sold: 2 });
  });

  it('refunds a second payment on a booked order, and the order stays paid with its booking', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    const first = await simulatePayment(t.deps, session.orderId);
    expect((await confirm(t, buyer.cookie, first)).data).toMatchObject({ outcome: 'booked' });

    // A second payment on the same order that also went through (Razorpay's rare late UPI success; the
    // simulator's own Pay refuses a paid order).
    const second = await lateSecondCapture(t, session.orderId);
    expect((await confirm(t, buyer.cookie, second)).data).toMatchObject({
      outcome: 'refunded',
      paymentId: second.razorpay_payment_id,
    });
    expect(await tableRows(t, 'refunds')).toMatchObject([
      { paymentId: second.razorpay_payment_id, reason: 'duplicate_payment' },
    ]);
    const { paymentOrders } = tablesOf(t.deps.db);
    const [order] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.id, session.orderId));
    expect(order?.status).toBe('paid');
    expect(await tableRows(t, 'bookings')).toMatchObject([
      { paymentId: first.razorpay_payment_id, status: 'confirmed' },
    ]);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ sold: 2, held: 0 });
  });

  it('rejects a forged or mismatched signature, and someone else’s order', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    // Paid without the simulator's webhooks, which would book it (genuinely) while this test is still
    // checking that nothing was booked.
    const paid = await simulatePayment(t.deps, session.orderId);

    const forged = await confirm(t, buyer.cookie, { ...paid, razorpay_signature: 'f'.repeat(64) });
    expect(forged.status).toBe(400);
    expect(forged.body.error?.message).toBe('Failed to complete booking. Please contact support.');
    const otherPayment = await confirm(t, buyer.cookie, {
      ...paid,
      razorpay_payment_id: 'pay_Forged00000000',
    });
    expect(otherPayment.status).toBe(400);

    // A valid result for order A presented as order B's does not verify against B's stored id.
    const second = await signedInUser(t);
    const otherSession = await proceed(t, second.cookie, ev, 1);
    const swapped = await confirm(t, second.cookie, { ...paid, razorpay_order_id: otherSession.orderId });
    expect(swapped.status).toBe(400);

    const stranger = await signedInUser(t);
    const notYours = await confirm(t, stranger.cookie, paid);
    expect(notYours.status).toBe(404);
    expect(await tableRows(t, 'bookings')).toHaveLength(0);
    expect((await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).held).toBe(3);

    // The genuine result still works afterwards.
    expect((await confirm(t, buyer.cookie, paid)).status).toBe(200);
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: otherSession.holdId, reason: 'cancelled' },
      {
        cookie: second.cookie,
      },
    );
  });

  it('a payment verified after its hold was released re-takes the seats while they are there', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    t.clock.advance(420_001);
    expect(await sweepExpiredHolds(t.deps.db, t.clock.now())).toBe(1);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 50, held: 0 });
    await expectInventoryInvariantOn(t.deps.db);

    const paid = await payWithSimulator(t, session.orderId);
    const res = await confirm(t, buyer.cookie, paid);
    expect(res.data).toMatchObject({ outcome: 'booked' });
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({
      available: 48,
      held: 0,
      sold: 2,
    });
    expect(await tableRows(t, 'refunds')).toEqual([]);
  });

  it('a verified payment whose seats are gone is refunded through the gateway and the buyer told', async () => {
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 2 }],
    });
    const late = await signedInUser(t);
    const session = await proceed(t, late.cookie, ev, 2);
    const dismissed = await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: session.holdId, reason: 'cancelled' },
      {
        cookie: late.cookie,
      },
    );
    expect(dismissed.data).toEqual({ released: true });
    // Someone else buys the last two seats meanwhile.
    const quick = await signedInUser(t);
    const quickSession = await proceed(t, quick.cookie, ev, 2);
    await confirm(t, quick.cookie, await payWithSimulator(t, quickSession.orderId, true));

    const paid = await payWithSimulator(t, session.orderId);
    const res = await confirm(t, late.cookie, paid);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      outcome: 'refunded',
      paymentId: paid.razorpay_payment_id,
      amountPaise: session.amountPaise,
      message:
        'The tickets sold out before your payment completed, so no booking was made. Your payment is being refunded in full.',
    });
    expect((await tableRows(t, 'refunds'))[0]).toMatchObject({
      paymentId: paid.razorpay_payment_id,
      status: 'processed',
      reason: 'seats_unavailable',
      amountPaise: session.amountPaise,
    });
    const { simulatorPayments, outbox } = tablesOf(t.deps.db);
    const [payment] = await t.deps.db
      .select()
      .from(simulatorPayments)
      .where(eq(simulatorPayments.id, paid.razorpay_payment_id));
    expect(payment).toMatchObject({
      status: 'refunded',
      amountRefundedPaise: session.amountPaise,
    });
    const [mail] = await t.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.idempotencyKey, `payment-refunded:${paid.razorpay_payment_id}`));
    expect(mail?.to).toBe(DETAILS.email);
    expect(mail?.text).toContain('refunded');
    expect(await tableRows(t, 'bookings')).toHaveLength(1);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 0, sold: 2 });

    // The webhooks for the refunded payment change nothing, and confirming again answers the same.
    await simulatorWebhooksDelivered(t.deps);
    expect((await confirm(t, late.cookie, paid)).data).toMatchObject({ outcome: 'refunded' });
    expect(await tableRows(t, 'refunds')).toHaveLength(1);
  });

  it('a refund the gateway refused stays pending and the reconciler issues it once', async () => {
    const real = createSimulatorGateway(t.deps);
    let refundCalls = 0;
    let refundsDown = true;
    t.deps.paymentGateway = {
      ...real,
      refundPayment: async (...args) => {
        refundCalls += 1;
        if (refundsDown) throw new GatewayError('Razorpay could not be reached', 'network');
        return real.refundPayment(...args);
      },
    } satisfies PaymentGateway;
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1 }],
    });
    const late = await signedInUser(t);
    const session = await proceed(t, late.cookie, ev, 1);
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: session.holdId, reason: 'failed' },
      { cookie: late.cookie },
    );
    const quick = await signedInUser(t);
    const quickSession = await proceed(t, quick.cookie, ev, 1);
    await confirm(t, quick.cookie, await payWithSimulator(t, quickSession.orderId, true));

    const paid = await payWithSimulator(t, session.orderId, true);
    expect((await confirm(t, late.cookie, paid)).data).toMatchObject({ outcome: 'refunded' });
    expect((await tableRows(t, 'refunds'))[0]).toMatchObject({ status: 'pending', attempts: 1 });

    refundsDown = false;
    t.clock.advance(61_000);
    await reconcilePayments(t.deps);
    expect((await tableRows(t, 'refunds'))[0]).toMatchObject({ status: 'processed', attempts: 2 });
    expect(refundCalls).toBe(2);
    t.clock.advance(61_000);
    await reconcilePayments(t.deps);
    expect(refundCalls).toBe(2);
  });
});

describe('the reconciler', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await expectInventoryInvariantOn(t.deps.db);
    await expectEveryCapturedPaymentSettledOnceOn(t);
    await t.close();
  });

  it('books a captured payment whose callback and webhooks were both lost', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    // Paid at the gateway, but the browser closed and no webhook arrived.
    const paid = await simulatePayment(t.deps, session.orderId);
    expect(await reconcilePayments(t.deps)).toMatchObject({ ordersChecked: 0 });
    t.clock.advance(61_000);
    expect(await reconcilePayments(t.deps)).toMatchObject({ ordersChecked: 1, paymentsSettled: 1 });
    const [booking] = await tableRows(t, 'bookings');
    expect(booking?.paymentId).toBe(paid.razorpay_payment_id);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ sold: 2, held: 0 });
    // The late browser callback finds the same booking.
    expect((await confirm(t, buyer.cookie, paid)).data).toEqual({
      outcome: 'booked',
      bookingId: booking?.id,
    });
  });

  it('refunds once a second captured payment on a booked order that nothing reported', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2);
    const first = await payWithSimulator(t, session.orderId);
    expect((await confirm(t, buyer.cookie, first)).data).toMatchObject({ outcome: 'booked' });
    // Captured at the gateway too, its callback and webhooks lost: the order is paid, so only the
    // reconciler's look at settled orders finds it.
    const second = await lateSecondCapture(t, session.orderId);
    await simulatorWebhooksDelivered(t.deps);

    t.clock.advance(61_000);
    expect(await reconcilePayments(t.deps)).toMatchObject({ settledOrdersChecked: 1, paymentsSettled: 1 });
    expect(await reconcilePayments(t.deps)).toMatchObject({ settledOrdersChecked: 0 });
    t.clock.advance(7 * 60 * 60 * 1000);
    expect(await reconcilePayments(t.deps)).toMatchObject({ settledOrdersChecked: 1, paymentsSettled: 0 });

    expect(await tableRows(t, 'refunds')).toMatchObject([
      { paymentId: second.razorpay_payment_id, reason: 'duplicate_payment', status: 'processed' },
    ]);
    expect(await tableRows(t, 'bookings')).toMatchObject([{ paymentId: first.razorpay_payment_id }]);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ sold: 2, held: 0 });
  });

  it('leaves unpaid orders alone and stops asking once they are old', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    await proceed(t, buyer.cookie, ev, 1);
    t.clock.advance(61_000);
    expect(await reconcilePayments(t.deps)).toMatchObject({ ordersChecked: 1, paymentsSettled: 0 });
    t.clock.advance(49 * 60 * 60 * 1000);
    expect(await reconcilePayments(t.deps)).toMatchObject({ ordersChecked: 0 });
    await sweepExpiredHolds(t.deps.db, t.clock.now());
  });
});
