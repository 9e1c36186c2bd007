import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { systemClock } from '../../src-server/deps.ts';
import { simulatePayment } from '../../src-server/integrations/simulator/gateway.ts';
import { MAX_ATTEMPTS, mailSenderJob } from '../../src-server/services/mail/sender.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import {
  confirmOn,
  FAULT_APP_SECRET,
  faultDataDir,
  killAllServers,
  killHard,
  letTimePass,
  proceedOrFail,
  signedInBuyer,
  startFaultServer,
  waitUntil,
} from '../helpers/fault-process.ts';
import { createFakeResend, type FakeResend } from '../helpers/fault-resend.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';
import { mswServer } from '../mocks/server.ts';

/**
 * Each message the outbox holds reached an inbox exactly once: one delivery per outbox row, under the
 * row's own idempotency key, and the row records the provider's id for that delivery.
 */
function expectEachSentOnce(rows: (typeof outbox.$inferSelect)[], fake: FakeResend) {
  expect(rows.every((r) => r.status === 'sent')).toBe(true);
  expect(fake.deliveries.map((d) => d.key).sort()).toEqual(rows.map((r) => r.idempotencyKey).sort());
  for (const row of rows) {
    const delivery = fake.deliveries.find((d) => d.key === row.idempotencyKey)!;
    expect(delivery).toMatchObject({ to: row.to, subject: row.subject });
    expect(row.providerMessageId).toBe(delivery.id);
  }
  // Every attempt carried its message's key, so Resend could recognise a retry.
  for (const request of fake.requests) {
    const row = rows.find((r) => r.idempotencyKey === request.key);
    expect(row, `the key of a request to ${request.to}`).toBeDefined();
    expect(request.subject).toBe(row?.subject);
  }
}

/** Issue 7, Faults: the mail provider is down for a while. */
describe('Resend down for forty minutes (the real sender job, Resend through msw)', () => {
  let t: TestApp;
  let fake: FakeResend;
  beforeEach(() => {
    t = createTestApp({ RESEND_API_KEY: 're_fault_test' });
    fake = createFakeResend();
    mswServer.use(fake.mswHandler);
  });
  afterEach(() => t.close());

  const rows = () => t.deps.db.select().from(outbox).all();

  it('keeps every message through the outage and sends each exactly once when Resend returns', async () => {
    // Six messages from real flows: four bookings, a refunded late payment and a Contact Us message.
    const ev = createTicketedEvent(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 4 }],
    });
    for (let i = 0; i < 3; i++) {
      const buyer = createSignedInUser(t);
      const session = await proceed(t, buyer.cookie, ev, 1);
      expect((await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId, true))).status).toBe(
        200,
      );
    }
    const late = createSignedInUser(t);
    const lateSession = await proceed(t, late.cookie, ev, 1);
    await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: lateSession.holdId, reason: 'cancelled' },
      { cookie: late.cookie },
    );
    const quick = createSignedInUser(t);
    const quickSession = await proceed(t, quick.cookie, ev, 1);
    await confirm(t, quick.cookie, await payWithSimulator(t, quickSession.orderId, true));
    const refunded = await confirm(t, late.cookie, await payWithSimulator(t, lateSession.orderId, true));
    expect(refunded.data).toMatchObject({ outcome: 'refunded' });
    await callProcedure(t, 'mutation', 'contact.send', {
      firstName: 'Asha',
      lastName: 'Verma',
      email: 'asha@example.com',
      mobile: '9876543210',
      message: 'Did my booking go through?',
    });
    const queued = rows();
    expect(queued).toHaveLength(6);

    // The very first request is accepted but its answer is lost; then Resend is down: no connection,
    // then 503s, then 429s, then no connection again, for forty minutes.
    fake.failNext('lost-answer');
    const phases = ['network', 'server-error', 'rate-limited', 'network'] as const;
    for (let minute = 0; minute < 40; minute += 0.5) {
      fake.setOutage(phases[Math.floor(minute / 10)]!);
      await mailSenderJob.run(t.deps);
      const now = rows();
      expect(now.map((r) => r.idempotencyKey).sort()).toEqual(queued.map((r) => r.idempotencyKey).sort());
      expect(now.every((r) => r.status === 'pending')).toBe(true);
      t.clock.advance(30_000);
    }
    expect(rows().every((r) => r.attempts >= 5)).toBe(true);
    expect(fake.deliveries).toHaveLength(1);

    // Resend is back: within the backoff (at most an hour between attempts) everything goes out.
    fake.setOutage(null);
    for (let minute = 0; minute < 120 && rows().some((r) => r.status === 'pending'); minute += 0.5) {
      await mailSenderJob.run(t.deps);
      t.clock.advance(30_000);
    }
    expectEachSentOnce(rows(), fake);
    // The message whose answer was lost was asked for again under the same key and not sent twice.
    const first = fake.deliveries[0]!;
    expect(fake.requests.filter((r) => r.key === first.key && r.fault === null).length).toBeGreaterThan(0);

    // And nothing goes out again later.
    const requestsSoFar = fake.requests.length;
    t.clock.advance(24 * 60 * 60_000);
    await mailSenderJob.run(t.deps);
    expect(fake.requests).toHaveLength(requestsSoFar);
  }, 30_000);

  it('after an outage longer than the retry window the messages are kept as failed, and re-queueing sends each once', async () => {
    for (const n of [1, 2, 3]) {
      await callProcedure(t, 'mutation', 'contact.send', {
        firstName: 'Asha',
        lastName: `Verma ${n}`,
        email: 'asha@example.com',
        mobile: '9876543210',
        message: `Question number ${n}`,
      });
    }
    fake.setOutage('server-error');
    for (let minute = 0; minute < 5 * 60; minute += 1) {
      await mailSenderJob.run(t.deps);
      t.clock.advance(60_000);
    }
    // Ten attempts over about three hours, then the sender stops trying; nothing is deleted.
    expect(rows()).toHaveLength(3);
    expect(rows().every((r) => r.status === 'failed' && r.attempts === MAX_ATTEMPTS)).toBe(true);
    expect(fake.deliveries).toHaveLength(0);

    // Resend is back; the operator re-queues the failed messages (docs/operations.md).
    fake.setOutage(null);
    t.deps.sqlite
      .prepare(
        "update outbox set status = 'pending', attempts = 0, next_attempt_at = ? where status = 'failed'",
      )
      .run(t.clock.now().toISOString());
    await mailSenderJob.run(t.deps);
    expectEachSentOnce(rows(), fake);
  });
});

describe('Resend down, the server killed mid-send and restarted (server process, local fake Resend)', () => {
  let scratch: ReturnType<typeof faultDataDir>;
  let database: DatabaseHandle;
  let fake: FakeResend;
  let resend: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    scratch = faultDataDir();
    database = scratch.database;
    fake = createFakeResend();
    resend = await fake.listen();
  });

  afterAll(async () => {
    await killAllServers();
    await resend?.close();
    scratch?.remove();
  });

  const rows = () => database.db.select().from(outbox).all();
  /** The backoff has passed for every waiting message. */
  const makeDue = () =>
    database.sqlite
      .prepare("update outbox set next_attempt_at = ? where status = 'pending'")
      .run(new Date(Date.now() - 1000).toISOString());

  it('loses no message and delivers the one in flight at the crash only once', async () => {
    const env = { RESEND_API_KEY: 're_fault_child', RESEND_BASE_URL: resend.url };
    fake.setOutage('server-error');
    let server = await startFaultServer(scratch.dataDir, { env });

    // Three bookings while Resend answers 503.
    const ev = createTicketedEvent(database.db, {
      now: new Date(),
      types: [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 10 }],
    });
    for (let i = 0; i < 3; i++) {
      const buyer = signedInBuyer(database);
      const session = await proceedOrFail(server, buyer.cookie, ev, 1);
      const paid = await simulatePayment(
        { db: database.db, clock: systemClock, appSecret: FAULT_APP_SECRET },
        session.orderId,
      );
      expect((await confirmOn(server, buyer.cookie, paid)).data).toMatchObject({ outcome: 'booked' });
    }
    await waitUntil(() => rows().length === 3 && rows().every((r) => r.attempts >= 1), 'first attempts');
    makeDue();
    await waitUntil(
      () => rows().every((r) => r.attempts >= 2),
      'second attempts',
      () => server.output(),
    );
    expect(rows().every((r) => r.status === 'pending' && r.lastError?.includes('application_error'))).toBe(
      true,
    );
    expect(fake.deliveries).toHaveLength(0);

    // Resend comes back just as the server sends the first message: Resend delivers it, and the
    // server is killed before the answer arrives.
    fake.setOutage('hold');
    makeDue();
    await waitUntil(
      () => fake.deliveries.length === 1,
      'a delivery in flight',
      () => server.output(),
    );
    await killHard(server);
    expect(rows()).toHaveLength(3);
    expect(rows().every((r) => r.status === 'pending')).toBe(true);

    // Restarted ten minutes later (past the sender's five-minute claim on the message in flight).
    fake.setOutage(null);
    fake.release();
    letTimePass(database, 10 * 60_000);
    server = await startFaultServer(scratch.dataDir, { env });
    await waitUntil(
      () => rows().every((r) => r.status === 'sent'),
      'every message sent',
      () => server.output(),
    );
    expectEachSentOnce(rows(), fake);
    const inFlight = fake.deliveries[0]!;
    expect(fake.requests.filter((r) => r.key === inFlight.key).length).toBeGreaterThanOrEqual(3);
  }, 90_000);
});
