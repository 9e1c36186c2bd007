import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { startBackgroundJobs } from '../../src-server/jobs.ts';
import { cancelEventBooking } from '../../src-server/services/bookings/cancel-booking.ts';
import { issueRefund, REFUND_LEASE_MS } from '../../src-server/services/refunds/issue-refund.ts';
import { refundJob } from '../../src-server/services/refunds/refund-job.ts';
import { runDueRefunds } from '../../src-server/services/refunds/run-due-refunds.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import { buy, consoleWorld, mailKeysOn, refundOn } from '../helpers/engine-fixtures.ts';
import { expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { watchRefunds } from '../helpers/organiser-bookings.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/** The simulator's own books: how much of a payment it has actually refunded. */
async function refundedByGateway(t: TestApp, paymentId: string) {
  const { simulatorPayments } = tablesOf(t.deps.db);
  const [payment] = await t.deps.db
    .select()
    .from(simulatorPayments)
    .where(eq(simulatorPayments.id, paymentId));
  return payment!.amountRefundedPaise;
}

describe('the refund job (one path for every refund)', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const cancel = (bookingId: string, cookie = w.people.owner.cookie) =>
    callProcedure(t, 'mutation', 'eventBookings.cancel', { eventId: w.event.eventId, bookingId }, { cookie });

  it('refunds a cancelled booking in full with an idempotency key, marks it processed and mails the buyer', async () => {
    const gateway = watchRefunds(t);
    const { bookingId, paymentId, buyer } = await buy(t, w.event, 2);
    expect((await cancel(bookingId)).data).toEqual({ cancelled: true });

    const refund = (await refundOn(t, paymentId))!;
    expect(refund).toMatchObject({ status: 'processed', bookingId, attempts: 1, lastError: null });
    expect(refund.amountPaise).toBeGreaterThan(0);
    expect(await refundedByGateway(t, paymentId)).toBe(refund.amountPaise);
    expect(gateway.calls).toEqual([{ paymentId, idempotencyKey: `refund-${refund.id}` }]);
    expect(await mailKeysOn(t)).toEqual(
      expect.arrayContaining([`booking-cancelled:${bookingId}`, `booking-refunded:${bookingId}`]),
    );
    expect((await mailKeysOn(t)).filter((k) => k.includes(bookingId))).toHaveLength(3); // confirmed, cancelled, refunded
    expect(buyer.email).toBeTruthy();
  });

  it('a gateway failure leaves the refund pending with its error, and a later run after the back-off issues it', async () => {
    const gateway = watchRefunds(t);
    const { bookingId, paymentId } = await buy(t, w.event, 1);
    gateway.faults.push('fail');
    await cancel(bookingId);
    expect(await refundOn(t, paymentId)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'Gateway answered 502',
    });
    expect(await mailKeysOn(t)).not.toContain(`booking-refunded:${bookingId}`);
    // The organiser's booking page shows it.
    const page = await callProcedure(
      t,
      'query',
      'eventBookings.booking',
      { eventId: w.event.eventId, bookingId },
      { cookie: w.people.owner.cookie },
    );
    expect(page.data).toMatchObject({
      status: 'cancelled',
      refund: { status: 'pending', lastError: 'Gateway answered 502' },
    });

    // Not before its back-off.
    expect(await runDueRefunds(t.deps)).toBe(0);
    t.clock.advance(31_000);
    await refundJob.run(t.deps);
    expect(await refundOn(t, paymentId)).toMatchObject({ status: 'processed', attempts: 2, lastError: null });
    expect(await refundedByGateway(t, paymentId)).toBe((await refundOn(t, paymentId))!.amountPaise);
    expect(await mailKeysOn(t)).toContain(`booking-refunded:${bookingId}`);
    expect(gateway.calls).toHaveLength(2);
  });

  it('running the job twice at once, or cancelling twice at once, refunds once', async () => {
    const gateway = watchRefunds(t);
    const first = await buy(t, w.event, 1);
    const second = await buy(t, w.event, 1);

    // Two cancels race (the owner and a co-organiser pressing at the same moment).
    const answers = await Promise.all([
      cancel(first.bookingId),
      cancel(first.bookingId, w.people['co-organiser'].cookie),
    ]);
    expect(answers.map((a) => (a.data as { cancelled: boolean }).cancelled).sort()).toEqual([false, true]);
    expect(gateway.calls.filter((c) => c.paymentId === first.paymentId)).toHaveLength(1);

    // Queued while the gateway is failing, then two runners (the job and the reconciler) at once.
    gateway.faults.push('fail');
    await cancel(second.bookingId);
    t.clock.advance(31_000);
    await Promise.all([runDueRefunds(t.deps), runDueRefunds(t.deps), refundJob.run(t.deps)]);
    expect(gateway.calls.filter((c) => c.paymentId === second.paymentId)).toHaveLength(2); // failed + one
    for (const b of [first, second]) {
      expect(await refundOn(t, b.paymentId)).toMatchObject({ status: 'processed' });
      expect(await refundedByGateway(t, b.paymentId)).toBe((await refundOn(t, b.paymentId))!.amountPaise);
    }
    // Cancelling again later changes nothing.
    expect((await cancel(first.bookingId)).data).toEqual({ cancelled: false });
    expect(gateway.calls).toHaveLength(3);
    await expectInventoryInvariantOn(t.deps.db);
  });

  it('a gateway that refunded but whose answer was lost is checked before the retry: no second refund', async () => {
    const gateway = watchRefunds(t);
    const { bookingId, paymentId } = await buy(t, w.event, 1);
    gateway.faults.push('lost-answer');
    await cancel(bookingId);
    expect(await refundOn(t, paymentId)).toMatchObject({ status: 'pending', lastError: 'socket hang up' });
    t.clock.advance(31_000);
    await runDueRefunds(t.deps);
    expect(await refundOn(t, paymentId)).toMatchObject({ status: 'processed', attempts: 2 });
    expect(gateway.calls).toHaveLength(1);
    expect(await refundedByGateway(t, paymentId)).toBe((await refundOn(t, paymentId))!.amountPaise);
  });
});

describe('refunds survive a restart', () => {
  let first: TestApp;
  let second: TestApp | undefined;
  afterEach(async () => {
    await second?.close();
    second = undefined;
    // On SQLite the second app's close removed the shared folder; on PostgreSQL the first app's drops the database.
    if (first.engine === 'postgres') await first.close();
  });

  /**
   * A new app instance on the same database (SQLite's file, or the same PostgreSQL database), its clock
   * where the first one's was plus `ms`. The first one is gone: on SQLite its file handle is closed; on
   * PostgreSQL nothing of it runs any more (its pool stays open only until the test drops the database).
   */
  async function restart(ms: number) {
    if (first.engine === 'sqlite') {
      first.deps.sqlite.close();
      second = await createTestAppOn('sqlite', { DATA_DIR: first.dataDir });
    } else {
      second = await createTestAppOn('postgres', { DATABASE_URL: first.deps.env.DATABASE_URL });
    }
    second.clock.set(new Date(first.clock.now().getTime() + ms));
    return second;
  }

  it('a refund whose gateway answer was lost before the crash is finished by the next process at start, once', async () => {
    first = await createTestAppOn(testEngine());
    const w = await consoleWorld(first);
    const gateway = watchRefunds(first);
    const { bookingId, paymentId } = await buy(first, w.event, 2);
    gateway.faults.push('lost-answer');
    await cancelEventBooking(first.deps, w.event.eventId, bookingId);
    expect(await refundOn(first, paymentId)).toMatchObject({ status: 'pending', attempts: 1 });

    const next = await restart(31_000);
    const jobs = startBackgroundJobs(next.deps, [refundJob]);
    try {
      await expect
        .poll(async () => (await refundOn(next, paymentId))?.status, { timeout: 3_000 })
        .toBe('processed');
    } finally {
      jobs.stop();
    }
    expect(await refundedByGateway(next, paymentId)).toBe((await refundOn(next, paymentId))!.amountPaise);
    expect(await mailKeysOn(next)).toContain(`booking-refunded:${bookingId}`);
  });

  it('a refund claimed by a process that died mid-call is picked up after its lease, and refunded once', async () => {
    first = await createTestAppOn(testEngine());
    const w = await consoleWorld(first);
    const gateway = watchRefunds(first);
    const { bookingId, paymentId } = await buy(first, w.event, 1);
    gateway.faults.push('fail');
    await cancelEventBooking(first.deps, w.event.eventId, bookingId);
    // The next attempt hangs forever: the process dies while waiting for the gateway.
    gateway.faults.push('hang');
    first.clock.advance(31_000);
    void issueRefund(first.deps, (await refundOn(first, paymentId))!.id);
    // The claim is written before the gateway call (a few statements on PostgreSQL, at once on SQLite).
    await expect.poll(async () => (await refundOn(first, paymentId))?.attempts).toBe(2);
    expect(await refundOn(first, paymentId)).toMatchObject({ status: 'pending', attempts: 2 });

    // Within the dead runner's lease nobody calls the gateway; after it, the new process does.
    const next = await restart(1_000);
    expect(await runDueRefunds(next.deps)).toBe(0);
    next.clock.advance(REFUND_LEASE_MS);
    await refundJob.run(next.deps);
    expect(await refundOn(next, paymentId)).toMatchObject({ status: 'processed', attempts: 3 });
    expect(await refundedByGateway(next, paymentId)).toBe((await refundOn(next, paymentId))!.amountPaise);
  });
});
