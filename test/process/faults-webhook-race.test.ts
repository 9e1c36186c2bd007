import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { refunds, webhookEvents } from '../../src-server/db/schema/payments.ts';
import { systemClock } from '../../src-server/deps.ts';
import {
  simulateFailure,
  simulatePayment,
  simulatorPaymentEntity,
} from '../../src-server/integrations/simulator/gateway.ts';
import { LATE_PAYMENT_REFUNDED_MESSAGE } from '../../src-server/services/payments/confirm.ts';
import {
  allPaymentsSettled,
  callServer,
  confirmOn,
  deliverWebhook,
  expectEachPaymentSettledOnce,
  FAULT_APP_SECRET,
  faultDataDir,
  killAllServers,
  letTimePass,
  proceedOrFail,
  type SignedResult,
  seededRandom,
  signedInBuyer,
  startFaultServer,
  waitUntil,
} from '../helpers/fault-process.ts';
import { countOf, createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';
import type { ServerProcess } from '../helpers/server-process.ts';

interface Payment {
  name: string;
  cookie: string;
  paid: SignedResult;
  entity: Awaited<ReturnType<typeof simulatorPaymentEntity>>;
  earlierFailure?: Awaited<ReturnType<typeof simulatorPaymentEntity>>;
}

/**
 * Issue 7, Faults: every payment's webhooks arrive three times, out of order, while the buyer's
 * callback and both servers' reconcilers race them — on two server processes sharing one database,
 * so the races are real. The final state is the one a single clean delivery gives.
 */
describe('webhooks three times, out of order, racing the callback on two processes', () => {
  let scratch: ReturnType<typeof faultDataDir>;
  let database: DatabaseHandle;
  let servers: ServerProcess[];

  beforeAll(async () => {
    scratch = faultDataDir();
    database = scratch.database;
    servers = await Promise.all([startFaultServer(scratch.dataDir), startFaultServer(scratch.dataDir)]);
  }, 60_000);

  afterAll(async () => {
    await killAllServers();
    scratch?.remove();
  });

  const gateway = () => ({ db: database.db, clock: systemClock, appSecret: FAULT_APP_SECRET });

  async function buy(ev: ReturnType<typeof createTicketedEvent>, quantity: number) {
    const buyer = signedInBuyer(database);
    const session = await proceedOrFail(servers[0]!, buyer.cookie, ev, quantity);
    return { buyer, session };
  }

  async function capture(name: string, cookie: string, orderId: string, failFirst = false): Promise<Payment> {
    const earlierFailure = failFirst
      ? await simulatorPaymentEntity(
          database.db,
          (await simulateFailure(gateway(), orderId, 'Card declined')).metadata.payment_id,
        )
      : undefined;
    const paid = await simulatePayment(gateway(), orderId);
    return {
      name,
      cookie,
      paid,
      entity: await simulatorPaymentEntity(database.db, paid.razorpay_payment_id),
      earlierFailure,
    };
  }

  /** Each payment: the callback twice, payment.captured and order.paid three times each, a stale failure. */
  function deliveries(payments: Payment[], round: string) {
    return payments.flatMap((p) => {
      const id = p.paid.razorpay_payment_id;
      const captured = { payment: { entity: p.entity } };
      const orderPaid = { payment: { entity: p.entity }, order: { entity: { id: p.entity.order_id } } };
      const sends: ((server: ServerProcess) => Promise<unknown>)[] = [
        (s) => confirmOn(s, p.cookie, p.paid).then((answer) => ({ callback: p.name, answer })),
        (s) => confirmOn(s, p.cookie, p.paid).then((answer) => ({ callback: p.name, answer })),
        ...[1, 2, 3].flatMap((n) => [
          (s: ServerProcess) => deliverWebhook(s, 'payment.captured', captured, `evt_c_${id}_${round}`),
          (s: ServerProcess) => deliverWebhook(s, 'order.paid', orderPaid, `evt_o_${id}_${round}${n}`),
        ]),
      ];
      if (p.earlierFailure) {
        const failed = { payment: { entity: p.earlierFailure } };
        sends.push((s) => deliverWebhook(s, 'payment.failed', failed, `evt_f_${id}_${round}`));
      }
      return sends;
    });
  }

  /** Fires everything at once, shuffled, each at one of the two servers. */
  async function fireShuffled(sends: ((server: ServerProcess) => Promise<unknown>)[], seed: number) {
    const random = seededRandom(seed);
    const order = sends
      .map((send) => ({ send, key: random(), server: servers[random() < 0.5 ? 0 : 1]! }))
      .sort((a, b) => a.key - b.key);
    return Promise.all(order.map(({ send, server }) => send(server)));
  }

  function snapshot() {
    const q = (sql: string) => database.sqlite.prepare(sql).all();
    return {
      bookings: q('select id, payment_id, ticket_count, user_id from bookings order by id'),
      refunds: q('select payment_id, status, amount_paise, attempts from refunds order by payment_id'),
      seats: q('select id, available_tickets from ticket_types order by id'),
      holds: q('select id, status from holds order by id'),
      users: q('select id, booking_ids_list from users order by id'),
      mail: q('select idempotency_key from outbox order by idempotency_key'),
      gateway: q('select id, status, amount_refunded_paise from simulator_payments order by id'),
    };
  }

  it('ends with one booking per payment, one refund for the late one, and the right counts', async () => {
    // Four buyers of two seats each; the first had a declined card before paying.
    const concert = createTicketedEvent(database.db, {
      now: new Date(),
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 10 }],
    });
    const payments: Payment[] = [];
    for (const [i, name] of ['asha', 'ravi', 'meera', 'kabir'].entries()) {
      const { buyer, session } = await buy(concert, 2);
      payments.push(await capture(name, buyer.cookie, session.orderId, i === 0));
    }
    // The last seat of a workshop: one buyer dismissed the window, another took the seat, then the
    // first buyer's payment went through anyway and must be refunded.
    const workshop = createTicketedEvent(database.db, {
      now: new Date(),
      types: [{ name: 'Studio Seat', pricePaise: 150_000, totalTickets: 1 }],
    });
    const late = await buy(workshop, 1);
    const released = await callServer(
      servers[1]!,
      'mutation',
      'payments.release',
      { holdId: late.session.holdId, reason: 'cancelled' },
      late.buyer.cookie,
    );
    expect(released.data).toEqual({ released: true });
    const quick = await buy(workshop, 1);
    payments.push(await capture('quick', quick.buyer.cookie, quick.session.orderId));
    payments.push(await capture('late', late.buyer.cookie, late.session.orderId));

    // The orders are a few minutes old, so both servers' reconcilers join the race too.
    letTimePass(database, 120_000);
    const answers = await fireShuffled(deliveries(payments, 'a'), 2024);
    await waitUntil(
      () => allPaymentsSettled(database),
      'every payment to settle',
      () => servers.map((s) => s.output()).join('\n'),
    );

    for (const answer of answers) {
      if (typeof answer === 'number') expect(answer).toBe(200);
    }
    const booked = database.db.select().from(bookings).all();
    const bookingOf = (p: Payment) => booked.find((b) => b.paymentId === p.paid.razorpay_payment_id);
    const callbacks = answers.filter(
      (a): a is { callback: string; answer: { status: number; data: unknown } } =>
        Boolean(a && typeof a === 'object' && 'callback' in a),
    );
    expect(callbacks).toHaveLength(payments.length * 2);
    for (const p of payments) {
      const expected =
        p.name === 'late'
          ? {
              outcome: 'refunded',
              paymentId: p.paid.razorpay_payment_id,
              amountPaise: p.entity.amount,
              message: LATE_PAYMENT_REFUNDED_MESSAGE,
            }
          : { outcome: 'booked', bookingId: bookingOf(p)?.id };
      for (const c of callbacks.filter((x) => x.callback === p.name)) {
        expect(c.answer, p.name).toEqual({ status: 200, data: expected, error: undefined });
      }
    }

    // The state a single clean delivery gives.
    expect(booked).toHaveLength(5);
    expect(database.db.select().from(refunds).all()).toEqual([
      expect.objectContaining({
        paymentId: payments.at(-1)!.paid.razorpay_payment_id,
        status: 'processed',
        attempts: 1,
      }),
    ]);
    expect(countOf(database.db, concert.ticketTypeIds[0]!)).toMatchObject({ available: 2, held: 0, sold: 8 });
    expect(countOf(database.db, workshop.ticketTypeIds[0]!)).toMatchObject({
      available: 0,
      held: 0,
      sold: 1,
    });
    expect(
      database.db
        .select()
        .from(webhookEvents)
        .all()
        .every((e) => e.processedAt !== null),
    ).toBe(true);
    expectEachPaymentSettledOnce(database);
    expectInventoryInvariant(database.db);

    // Another full round, in another order, changes nothing.
    const before = snapshot();
    await fireShuffled(deliveries(payments, 'b'), 7);
    expect(snapshot()).toEqual(before);
  }, 90_000);
});
