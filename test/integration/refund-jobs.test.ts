import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { simulatorPayments } from '../../src-server/db/schema/payments.ts';
import { startBackgroundJobs } from '../../src-server/jobs.ts';
import { cancelEventBooking } from '../../src-server/services/bookings/cancel-booking.ts';
import { issueRefund, REFUND_LEASE_MS } from '../../src-server/services/refunds/issue-refund.ts';
import { refundJob } from '../../src-server/services/refunds/refund-job.ts';
import { runDueRefunds } from '../../src-server/services/refunds/run-due-refunds.ts';
import { type ConsoleWorld, createConsoleWorld } from '../helpers/console-world.ts';
import { expectInventoryInvariant } from '../helpers/inventory.ts';
import { buyTickets, mailKeys, refundOf, watchRefunds } from '../helpers/organiser-bookings.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/** The simulator's own books: how much of a payment it has actually refunded. */
const refundedByGateway = (t: TestApp, paymentId: string) =>
  t.deps.db.select().from(simulatorPayments).where(eq(simulatorPayments.id, paymentId)).get()!
    .amountRefundedPaise;

describe('the refund job (one path for every refund)', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(() => {
    t = createTestApp();
    w = createConsoleWorld(t);
  });
  afterEach(() => t.close());

  const cancel = (bookingId: string, cookie = w.people.owner.cookie) =>
    callProcedure(t, 'mutation', 'eventBookings.cancel', { eventId: w.event.eventId, bookingId }, { cookie });

  it('refunds a cancelled booking in full with an idempotency key, marks it processed and mails the buyer', async () => {
    const gateway = watchRefunds(t);
    const { bookingId, paymentId, buyer } = await buyTickets(t, w.event, 2);
    expect((await cancel(bookingId)).data).toEqual({ cancelled: true });

    const refund = refundOf(t, paymentId)!;
    expect(refund).toMatchObject({ status: 'processed', bookingId, attempts: 1, lastError: null });
    expect(refund.amountPaise).toBeGreaterThan(0);
    expect(refundedByGateway(t, paymentId)).toBe(refund.amountPaise);
    expect(gateway.calls).toEqual([{ paymentId, idempotencyKey: `refund-${refund.id}` }]);
    expect(mailKeys(t)).toEqual(
      expect.arrayContaining([`booking-cancelled:${bookingId}`, `booking-refunded:${bookingId}`]),
    );
    expect(mailKeys(t).filter((k) => k.includes(bookingId))).toHaveLength(3); // confirmed, cancelled, refunded
    expect(buyer.email).toBeTruthy();
  });

  it('a gateway failure leaves the refund pending with its error, and a later run after the back-off issues it', async () => {
    const gateway = watchRefunds(t);
    const { bookingId, paymentId } = await buyTickets(t, w.event, 1);
    gateway.faults.push('fail');
    await cancel(bookingId);
    expect(refundOf(t, paymentId)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'Gateway answered 502',
    });
    expect(mailKeys(t)).not.toContain(`booking-refunded:${bookingId}`);
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
    expect(refundOf(t, paymentId)).toMatchObject({ status: 'processed', attempts: 2, lastError: null });
    expect(refundedByGateway(t, paymentId)).toBe(refundOf(t, paymentId)!.amountPaise);
    expect(mailKeys(t)).toContain(`booking-refunded:${bookingId}`);
    expect(gateway.calls).toHaveLength(2);
  });

  it('running the job twice at once, or cancelling twice at once, refunds once', async () => {
    const gateway = watchRefunds(t);
    const first = await buyTickets(t, w.event, 1);
    const second = await buyTickets(t, w.event, 1);

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
      expect(refundOf(t, b.paymentId)).toMatchObject({ status: 'processed' });
      expect(refundedByGateway(t, b.paymentId)).toBe(refundOf(t, b.paymentId)!.amountPaise);
    }
    // Cancelling again later changes nothing.
    expect((await cancel(first.bookingId)).data).toEqual({ cancelled: false });
    expect(gateway.calls).toHaveLength(3);
    expectInventoryInvariant(t.deps.db);
  });

  it('a gateway that refunded but whose answer was lost is checked before the retry: no second refund', async () => {
    const gateway = watchRefunds(t);
    const { bookingId, paymentId } = await buyTickets(t, w.event, 1);
    gateway.faults.push('lost-answer');
    await cancel(bookingId);
    expect(refundOf(t, paymentId)).toMatchObject({ status: 'pending', lastError: 'socket hang up' });
    t.clock.advance(31_000);
    await runDueRefunds(t.deps);
    expect(refundOf(t, paymentId)).toMatchObject({ status: 'processed', attempts: 2 });
    expect(gateway.calls).toHaveLength(1);
    expect(refundedByGateway(t, paymentId)).toBe(refundOf(t, paymentId)!.amountPaise);
  });
});

describe('refunds survive a restart', () => {
  let first: TestApp;
  let second: TestApp | undefined;
  afterEach(() => {
    second?.close();
  });

  /** A new app instance on the same database file, its clock where the first one's was plus `ms`. */
  function restart(ms: number) {
    first.deps.sqlite.close();
    second = createTestApp({ DATA_DIR: first.dataDir });
    second.clock.set(new Date(first.clock.now().getTime() + ms));
    return second;
  }

  it('a refund whose gateway answer was lost before the crash is finished by the next process at start, once', async () => {
    first = createTestApp();
    const w = createConsoleWorld(first);
    const gateway = watchRefunds(first);
    const { bookingId, paymentId } = await buyTickets(first, w.event, 2);
    gateway.faults.push('lost-answer');
    await cancelEventBooking(first.deps, w.event.eventId, bookingId);
    expect(refundOf(first, paymentId)).toMatchObject({ status: 'pending', attempts: 1 });

    const next = restart(31_000);
    const jobs = startBackgroundJobs(next.deps, [refundJob]);
    try {
      await expect.poll(() => refundOf(next, paymentId)?.status, { timeout: 3_000 }).toBe('processed');
    } finally {
      jobs.stop();
    }
    expect(refundedByGateway(next, paymentId)).toBe(refundOf(next, paymentId)!.amountPaise);
    expect(mailKeys(next)).toContain(`booking-refunded:${bookingId}`);
  });

  it('a refund claimed by a process that died mid-call is picked up after its lease, and refunded once', async () => {
    first = createTestApp();
    const w = createConsoleWorld(first);
    const gateway = watchRefunds(first);
    const { bookingId, paymentId } = await buyTickets(first, w.event, 1);
    gateway.faults.push('fail');
    await cancelEventBooking(first.deps, w.event.eventId, bookingId);
    // The next attempt hangs forever: the process dies while waiting for the gateway.
    gateway.faults.push('hang');
    first.clock.advance(31_000);
    void issueRefund(first.deps, refundOf(first, paymentId)!.id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(refundOf(first, paymentId)).toMatchObject({ status: 'pending', attempts: 2 });

    // Within the dead runner's lease nobody calls the gateway; after it, the new process does.
    const next = restart(1_000);
    expect(await runDueRefunds(next.deps)).toBe(0);
    next.clock.advance(REFUND_LEASE_MS);
    await refundJob.run(next.deps);
    expect(refundOf(next, paymentId)).toMatchObject({ status: 'processed', attempts: 3 });
    expect(refundedByGateway(next, paymentId)).toBe(refundOf(next, paymentId)!.amountPaise);
  });
});
