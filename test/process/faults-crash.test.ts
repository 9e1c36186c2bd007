import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { holds, paymentOrders, refunds, simulatorPayments } from '../../src-server/db/schema/payments.ts';
import { systemClock } from '../../src-server/deps.ts';
import { simulatePayment, simulatorPaymentEntity } from '../../src-server/integrations/simulator/gateway.ts';
import type { ArmedBarrier, BarrierStep } from '../helpers/fault-barrier.ts';
import {
  allPaymentsSettled,
  armBarrier,
  callServer,
  confirmOn,
  deliverWebhook,
  disarmBarrier,
  expectEachPaymentSettledOnce,
  FAULT_APP_SECRET,
  faultDataDir,
  killAllServers,
  killHard,
  letTimePass,
  proceedOrFail,
  type SignedResult,
  settledOrCut,
  signedInBuyer,
  startFaultServer,
  waitForBarrier,
  waitUntil,
} from '../helpers/fault-process.ts';
import {
  countOf,
  createTicketedEvent,
  expectInventoryInvariant,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import type { ServerProcess } from '../helpers/server-process.ts';

/**
 * Issue 7, Faults: the server process is killed with SIGKILL at each step between verifying a payment
 * and committing its booking (or refund), then restarted on the same data folder. The fault barrier
 * (test/helpers/fault-barrier.ts, preloaded into the child) freezes the process at the step; the test
 * kills it from outside. One server's restart recovers the previous scenario and then crashes in the
 * next, so the six scenarios need seven starts.
 */
describe('kill -9 between payment verification and booking commit', () => {
  let scratch: ReturnType<typeof faultDataDir>;
  let database: DatabaseHandle;
  let server: ServerProcess;

  beforeAll(async () => {
    scratch = faultDataDir();
    database = scratch.database;
    server = await startFaultServer(scratch.dataDir);
  }, 60_000);

  afterAll(async () => {
    await killAllServers();
    scratch?.remove();
  });

  /** The buyer pays in the window: the gateway captures the payment (no webhook sent yet). */
  async function payAtGateway(orderId: string) {
    const paid = await simulatePayment(
      { db: database.db, clock: systemClock, appSecret: FAULT_APP_SECRET },
      orderId,
    );
    const entity = await simulatorPaymentEntity(database.db, paid.razorpay_payment_id);
    return { paid, entity };
  }

  interface Scenario {
    ev: TicketedEvent;
    buyer: { cookie: string };
    paid: SignedResult;
    entity: Awaited<ReturnType<typeof simulatorPaymentEntity>>;
    holdId: string;
  }

  /** One buyer, one held seat, paid at the gateway. */
  async function paidBooking(): Promise<Scenario> {
    const ev = createTicketedEvent(database.db, {
      now: new Date(),
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 10 }],
    });
    const buyer = signedInBuyer(database);
    const session = await proceedOrFail(server, buyer.cookie, ev, 2);
    return { ev, buyer, holdId: session.holdId, ...(await payAtGateway(session.orderId)) };
  }

  /**
   * A payment that has to be refunded: the buyer dismissed the window (seats released), someone else
   * bought the last seat, and then the first buyer's payment went through after all.
   */
  async function paidTooLate(): Promise<Scenario> {
    const ev = createTicketedEvent(database.db, {
      now: new Date(),
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 1 }],
    });
    const late = signedInBuyer(database);
    const session = await proceedOrFail(server, late.cookie, ev, 1);
    const released = await callServer(
      server,
      'mutation',
      'payments.release',
      { holdId: session.holdId, reason: 'cancelled' },
      late.cookie,
    );
    expect(released.data).toEqual({ released: true });
    const quick = signedInBuyer(database);
    const quickSession = await proceedOrFail(server, quick.cookie, ev, 1);
    const quickPaid = (await payAtGateway(quickSession.orderId)).paid;
    expect((await confirmOn(server, quick.cookie, quickPaid)).data).toMatchObject({ outcome: 'booked' });
    return { ev, buyer: late, holdId: session.holdId, ...(await payAtGateway(session.orderId)) };
  }

  /** Razorpay's two events for a captured payment, as first sent. */
  function webhooksFor(s: Scenario, round: string) {
    return [
      () =>
        deliverWebhook(
          server,
          'payment.captured',
          { payment: { entity: s.entity } },
          `evt_capt_${s.paid.razorpay_payment_id}`,
        ),
      () =>
        deliverWebhook(
          server,
          'order.paid',
          { payment: { entity: s.entity }, order: { entity: { id: s.entity.order_id } } },
          `evt_paid_${s.paid.razorpay_payment_id}_${round}`,
        ),
    ];
  }

  /** Arms the barrier, starts the settlement the way `trigger` says, and kills the server at the step. */
  async function crashAt(step: BarrierStep, s: Scenario, trigger: 'callback' | 'webhook') {
    const barrier: ArmedBarrier = { step, paymentId: s.paid.razorpay_payment_id };
    armBarrier(scratch.dataDir, barrier);
    const request: Promise<unknown> =
      trigger === 'callback' ? confirmOn(server, s.buyer.cookie, s.paid) : webhooksFor(s, 'first')[0]!();
    const answer = settledOrCut(request);
    await waitForBarrier(server, barrier);
    await killHard(server);
    // The buyer (or the gateway) never got an answer.
    expect(await answer).toBe('cut');
    disarmBarrier(scratch.dataDir);
  }

  /** Starts the server again on the same folder, optionally as if `laterMs` had passed meanwhile. */
  async function restart(laterMs = 0) {
    if (laterMs > 0) letTimePass(database, laterMs);
    server = await startFaultServer(scratch.dataDir);
  }

  /**
   * After recovery: the gateway re-delivers both events three times and the buyer retries the callback,
   * all at once. Nothing changes, and the callback answers with the settled outcome.
   */
  async function replayEverything(s: Scenario) {
    const before = snapshot();
    const replays = [1, 2, 3].flatMap((round) => webhooksFor(s, `replay${round}`).map((send) => send()));
    const [callback, ...statuses] = await Promise.all([
      confirmOn(server, s.buyer.cookie, s.paid),
      ...replays,
    ]);
    for (const status of statuses) expect(status).toBe(200);
    expect(snapshot()).toEqual(before);
    return callback;
  }

  function snapshot() {
    const q = (sql: string) => database.sqlite.prepare(sql).all();
    return {
      bookings: q('select id, payment_id, ticket_count from bookings order by id'),
      refunds: q('select payment_id, status, amount_paise from refunds order by payment_id'),
      seats: q('select id, available_tickets from ticket_types order by id'),
      mail: q('select idempotency_key from outbox order by idempotency_key'),
      refunded: q('select id, amount_refunded_paise from simulator_payments order by id'),
    };
  }

  function expectAllSound() {
    expectEachPaymentSettledOnce(database);
    expectInventoryInvariant(database.db);
  }

  const confirmationMails = () =>
    database.db
      .select()
      .from(outbox)
      .all()
      .filter((m) => m.idempotencyKey.startsWith('booking-confirmed:'));
  const orderOf = (s: Scenario) =>
    database.db.select().from(paymentOrders).where(eq(paymentOrders.id, s.paid.razorpay_order_id)).get();
  const holdOf = (s: Scenario) => database.db.select().from(holds).where(eq(holds.id, s.holdId)).get();
  const bookingOf = (s: Scenario) =>
    database.db.select().from(bookings).where(eq(bookings.paymentId, s.paid.razorpay_payment_id)).get();
  const refundOf = (s: Scenario) =>
    database.db.select().from(refunds).where(eq(refunds.paymentId, s.paid.razorpay_payment_id)).get();
  const gatewayPayment = (s: Scenario) =>
    database.db
      .select()
      .from(simulatorPayments)
      .where(eq(simulatorPayments.id, s.paid.razorpay_payment_id))
      .get();

  it('after verification, before any write: nothing was written; the re-delivered webhooks book it once', async () => {
    const s = await paidBooking();
    await crashAt('after-verify', s, 'callback');
    expect(bookingOf(s)).toBeUndefined();
    expect(holdOf(s)?.status).toBe('active');
    expect(orderOf(s)?.status).toBe('created');
    expect(countOf(database.db, s.ev.ticketTypeIds[0]!)).toMatchObject({ held: 2, sold: 0 });
    expectInventoryInvariant(database.db);

    // Back at once: Razorpay re-delivers (three times) while the buyer's page retries the callback.
    await restart();
    const [callback, ...statuses] = await Promise.all([
      confirmOn(server, s.buyer.cookie, s.paid),
      ...[1, 2, 3].flatMap((round) => webhooksFor(s, `retry${round}`).map((send) => send())),
    ]);
    for (const status of statuses) expect(status).toBe(200);
    expect(callback).toEqual({ status: 200, data: { outcome: 'booked', bookingId: bookingOf(s)?.id } });
    expect(countOf(database.db, s.ev.ticketTypeIds[0]!)).toMatchObject({ held: 0, sold: 2, available: 8 });
    expectAllSound();
  }, 90_000);

  it('booking written, not committed: the crash rolls it back; the reconciler alone books it once', async () => {
    const s = await paidBooking();
    await crashAt('booking-before-commit', s, 'webhook');
    expect(bookingOf(s)).toBeUndefined();
    expect(holdOf(s)?.status).toBe('active');
    expect(confirmationMails()).toHaveLength(database.db.select().from(bookings).all().length);
    expectInventoryInvariant(database.db);

    // Every webhook and the callback were lost; the restart comes two minutes later.
    await restart(120_000);
    await waitUntil(
      () => bookingOf(s) !== undefined,
      'the reconciler to book the payment',
      () => server.output(),
    );
    expect(orderOf(s)?.status).toBe('paid');
    expect(holdOf(s)?.status).toBe('converted');
    const callback = await replayEverything(s);
    expect(callback.data).toEqual({ outcome: 'booked', bookingId: bookingOf(s)!.id });
    expectAllSound();
  }, 90_000);

  it('booking committed, buyer not told: it survives the crash and every retry answers the same booking', async () => {
    const s = await paidBooking();
    await crashAt('booking-after-commit', s, 'callback');
    const booking = bookingOf(s);
    expect(booking?.ticketCount).toBe(2);
    expect(holdOf(s)?.status).toBe('converted');
    expect(
      database.db
        .select()
        .from(outbox)
        .where(eq(outbox.idempotencyKey, `booking-confirmed:${booking?.id}`))
        .get(),
    ).toBeDefined();
    expectAllSound();

    await restart(120_000);
    const callback = await replayEverything(s);
    expect(callback.data).toEqual({ outcome: 'booked', bookingId: booking?.id });
    expect(countOf(database.db, s.ev.ticketTypeIds[0]!)).toMatchObject({ held: 0, sold: 2, available: 8 });
    expectAllSound();
  }, 90_000);

  it('refund written, not committed: the reconciler later records it and refunds once', async () => {
    const s = await paidTooLate();
    await crashAt('refund-before-commit', s, 'callback');
    expect(refundOf(s)).toBeUndefined();
    expect(orderOf(s)?.status).toBe('created');
    expect(gatewayPayment(s)?.amountRefundedPaise).toBe(0);

    await restart(120_000);
    await waitUntil(
      () => allPaymentsSettled(database),
      'the reconciler to refund the payment',
      () => server.output(),
    );
    expect(refundOf(s)).toMatchObject({ status: 'processed', reason: 'seats_unavailable', attempts: 1 });
    expect((await replayEverything(s)).data).toMatchObject({ outcome: 'refunded' });
    expectAllSound();
  }, 90_000);

  it('refund committed, gateway not yet asked: the reconciler asks it exactly once', async () => {
    const s = await paidTooLate();
    await crashAt('refund-after-commit', s, 'callback');
    expect(refundOf(s)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(gatewayPayment(s)?.amountRefundedPaise).toBe(0);
    expect(orderOf(s)?.status).toBe('refunded');

    await restart(120_000);
    await waitUntil(
      () => refundOf(s)?.status === 'processed',
      'the reconciler to refund',
      () => server.output(),
    );
    expect(refundOf(s)).toMatchObject({ attempts: 1, lastError: null });
    expect(gatewayPayment(s)).toMatchObject({ status: 'refunded', amountRefundedPaise: s.entity.amount });
    expect((await replayEverything(s)).data).toMatchObject({ outcome: 'refunded' });
    expectAllSound();
  }, 90_000);

  it('gateway refunded, our row still pending: the reconciler sees the refund and does not refund again', async () => {
    const s = await paidTooLate();
    await crashAt('refund-after-gateway', s, 'webhook');
    expect(refundOf(s)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(gatewayPayment(s)?.amountRefundedPaise).toBe(s.entity.amount);

    await restart(120_000);
    await waitUntil(
      () => refundOf(s)?.status === 'processed',
      'the reconciler to settle the refund',
      () => server.output(),
    );
    // A second refund call would have been refused by the gateway (more than the payment) and left an error.
    expect(refundOf(s)).toMatchObject({ attempts: 2, lastError: null });
    expect(gatewayPayment(s)).toMatchObject({ status: 'refunded', amountRefundedPaise: s.entity.amount });
    expect((await replayEverything(s)).data).toMatchObject({ outcome: 'refunded' });
    expectAllSound();
  }, 90_000);
});
