import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { row, rows } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { mailSenderJob } from '../../src-server/services/mail/sender.ts';
import { refundJob } from '../../src-server/services/refunds/refund-job.ts';
import { type JourneyWorld, journeyWorld } from '../helpers/journey-world.ts';
import { watchRefunds } from '../helpers/organiser-bookings.ts';
import { enginesFor } from '../helpers/test-app.ts';

// Issue 38: journeys proved service by service on both engines (engine-refunds, engine-gate-*) now end to
// end through the app on each, everything set up over its HTTP/tRPC interface (test/helpers/journey-world.ts).
// Here the money: a buyer's cancellation and an organiser's full and part refunds, paid by the refund job
// through the simulator after a failed first call, and the mails sent by the mail job.

const engines = enginesFor('engine-journeys.test.ts');

describe.each(engines)('refund journeys through the app on %s', (engine) => {
  let w: JourneyWorld;
  beforeAll(async () => {
    w = await journeyWorld(engine);
  }, 30_000);
  afterAll(async () => {
    await w?.t.close();
  });

  /**
   * On PostgreSQL, locks the booking's part refunds from another connection for `ms`, so a write to them
   * (the failure's record) waits that long; resolves once the lock is held.
   */
  async function holdRowsFor(bookingId: string, ms: number) {
    if (engine !== 'postgres') return;
    const other = new pg.Client({ connectionString: w.t.deps.env.DATABASE_URL });
    await other.connect();
    await other.query('begin');
    await other.query('select id from refund_parts where booking_id = $1 for update', [bookingId]);
    setTimeout(() => {
      void other.query('commit').finally(() => other.end());
    }, ms);
  }

  it('a buyer cancels their booking: seats back on sale at once, the refund queued and paid by the refund job', async () => {
    const buyer = await w.newBuyer();
    const before = await w.seatsLeft();
    const { bookingId, paymentId, totalPaise } = await w.purchase(buyer.cookie, 3);
    expect((await w.seatsLeft()).available).toBe(before.available - 3);

    // The gateway is down when the buyer cancels: the refund waits in the queue for the job.
    const gateway = watchRefunds(w.t);
    gateway.faults.push('fail');
    const quote = await w.site.ok<{ cancellable: boolean; refundAmountPaise: number }>(
      'query',
      'bookings.cancellationQuote',
      { bookingId },
      buyer.cookie,
    );
    expect(quote.data).toMatchObject({ cancellable: true, refundAmountPaise: totalPaise });
    const cancelled = await w.site.ok('mutation', 'bookings.cancel', { bookingId }, buyer.cookie);
    expect(cancelled.data).toEqual({ cancelled: true, refundAmountPaise: totalPaise });
    expect(await w.bookingRow(bookingId)).toMatchObject({ status: 'cancelled', cancelReason: 'buyer' });
    expect(await w.seatsLeft()).toMatchObject({ available: before.available, sold: before.sold });
    expect(await w.refundsOf(bookingId)).toMatchObject([
      {
        status: 'pending',
        reason: 'buyer_cancelled',
        amountPaise: totalPaise,
        lastError: 'Gateway answered 502',
      },
    ]);
    expect(await w.refundedByGateway(paymentId)).toBe(0);

    // The job, after the retry's back-off: the simulator pays it back, once, and the buyer is told.
    w.t.clock.advance(31_000);
    await refundJob.run(w.t.deps);
    await refundJob.run(w.t.deps);
    expect(await w.refundsOf(bookingId)).toMatchObject([
      { status: 'processed', attempts: 2, lastError: null },
    ]);
    expect(await w.refundedByGateway(paymentId)).toBe(totalPaise);
    expect(gateway.calls).toHaveLength(2);
    // The mail sender's job sends the cancellation and the refund mails.
    await mailSenderJob.run(w.t.deps);
    expect(await w.mailsOf(bookingId)).toMatchObject({
      [`booking-cancelled:${bookingId}`]: 'sent',
      [`booking-refunded:${bookingId}`]: 'sent',
    });
    // Cancelling again refunds nothing more and puts no seat back twice.
    expect((await w.site.ok('mutation', 'bookings.cancel', { bookingId }, buyer.cookie)).data).toEqual({
      cancelled: false,
      refundAmountPaise: 0,
    });
    expect(await w.seatsLeft()).toMatchObject({ available: before.available });
    // The seats are on sale again: another buyer gets them.
    const next = await w.newBuyer();
    await w.purchase(next.cookie, 3);
    expect((await w.seatsLeft()).available).toBe(before.available - 3);
  });

  it('the organiser cancels a booking with a full refund, and refunds part of another', async () => {
    const before = await w.seatsLeft();
    const full = await w.purchase((await w.newBuyer()).cookie, 2);
    const cancelled = await w.site.ok(
      'mutation',
      'eventBookings.cancel',
      { eventId: w.show.eventId, bookingId: full.bookingId },
      w.organiser,
    );
    expect(cancelled.data).toEqual({ cancelled: true });
    expect(await w.refundsOf(full.bookingId)).toMatchObject([
      { status: 'processed', amountPaise: full.totalPaise },
    ]);
    expect(await w.refundedByGateway(full.paymentId)).toBe(full.totalPaise);
    expect(await w.seatsLeft()).toMatchObject({ available: before.available });
    const page = await w.site.ok<{ status: string; refund: { status: string } }>(
      'query',
      'eventBookings.booking',
      { eventId: w.show.eventId, bookingId: full.bookingId },
      w.organiser,
    );
    expect(page.data).toMatchObject({ status: 'cancelled', refund: { status: 'processed' } });

    // A part refund: ₹200 back of a booking that stays confirmed, its seats still sold. The gateway
    // fails the first call: the part waits for the refund job, which pays it after the back-off.
    const part = await w.purchase((await w.newBuyer()).cookie, 2);
    const gateway = watchRefunds(w.t);
    gateway.faults.push('fail');
    // The database is slow to record the failure (another connection holds the part's row for a moment,
    // on PostgreSQL; SQLite writes it synchronously): the organiser's answer must still wait for it.
    const watched = w.t.deps.paymentGateway!;
    w.t.deps.paymentGateway = {
      ...watched,
      async refundPayment(...args) {
        await holdRowsFor(part.bookingId, 200);
        return watched.refundPayment(...args);
      },
    };
    const refunded = await w.site.ok<{ refundPartId: string; amountPaise: number }>(
      'mutation',
      'eventBookings.refundPart',
      { eventId: w.show.eventId, bookingId: part.bookingId, amountPaise: 20_000, reason: 'Sound failed' },
      w.organiser,
    );
    expect(refunded.data).toMatchObject({ amountPaise: 20_000 });
    const partRow = () =>
      w.read(function* (db) {
        const { refundParts } = tablesOf(db);
        return yield* row(
          db.select().from(refundParts).where(eq(refundParts.id, refunded.data.refundPartId)),
        );
      });
    expect(await partRow()).toMatchObject({ status: 'pending', lastError: 'Gateway answered 502' });
    expect(await w.refundedByGateway(part.paymentId)).toBe(0);
    w.t.clock.advance(31_000);
    await refundJob.run(w.t.deps);
    expect(await partRow()).toMatchObject({ status: 'processed', lastError: null });
    expect(await w.refundedByGateway(part.paymentId)).toBe(20_000);
    expect(gateway.calls.filter((c) => c.paymentId === part.paymentId)).toHaveLength(2);
    const parts = await w.read(function* (db) {
      const { refundParts, partialCreditNotes } = tablesOf(db);
      const made = yield* rows(
        db.select().from(refundParts).where(eq(refundParts.bookingId, part.bookingId)),
      );
      const notes = yield* rows(
        db
          .select({ totalPaise: partialCreditNotes.totalPaise })
          .from(partialCreditNotes)
          .where(eq(partialCreditNotes.refundPartId, refunded.data.refundPartId)),
      );
      return { made, notes };
    });
    expect(parts.made).toMatchObject([{ amountPaise: 20_000 }]);
    expect(parts.notes.reduce((sum, n) => sum + n.totalPaise, 0)).toBe(20_000);
    expect(await w.bookingRow(part.bookingId)).toMatchObject({ status: 'confirmed' });
    expect((await w.seatsLeft()).available).toBe(before.available - 2);
    // More than is left is refused, and nothing more goes back.
    const beyond = await w.site.call(
      'mutation',
      'eventBookings.refundPart',
      { eventId: w.show.eventId, bookingId: part.bookingId, amountPaise: part.totalPaise, reason: 'Again' },
      w.organiser,
    );
    expect(beyond.status).toBe(400);
    expect(beyond.error?.message).toMatch(/^You can refund at most ₹/);
    expect(await w.refundedByGateway(part.paymentId)).toBe(20_000);
  });
});
