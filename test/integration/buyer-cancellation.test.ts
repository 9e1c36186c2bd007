/**
 * A buyer cancels their own booking under the event's refund policy: the quote, the refund, the seats
 * and the refusals. Runs on both engines (vitest.config.ts ON_BOTH_ENGINES).
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GATE_MESSAGES } from '../../shared/gate-schemas.ts';
import type { RefundRule } from '../../shared/refund-policy.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { CANCEL_REFUSALS } from '../../src-server/services/bookings/buyer-cancellation.ts';
import { recordScan } from '../../src-server/services/gate/record-scan.ts';
import { undoAdmission } from '../../src-server/services/gate/undo-admission.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { buy as buyTickets, mailOn, refundOn, signedInUser } from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let t: TestApp;
let ev: TicketedEvent;
beforeEach(async () => {
  t = await createTestAppOn(testEngine());
  // ₹500 tickets with a 10% convenience fee, so the three rules give three different amounts.
  ev = await createTicketedEventOn(t.deps.db, {
    types: [{ name: 'Floor', pricePaise: 50_000, totalTickets: 20 }],
    platformFeeRate: 10,
  });
});
afterEach(async () => {
  await expectInventoryInvariantOn(t.deps.db);
  await t.close();
});

/** The engine's tables, for the rows this file reads and writes itself. */
const tables = () => tablesOf(t.deps.db);
async function setPolicy(rule: RefundRule, percent: number | null = null, cutoffHours = 24) {
  const { events } = tables();
  await t.deps.db
    .update(events)
    .set({ refundRule: rule, refundPercent: percent, refundCutoffHours: cutoffHours })
    .where(eq(events.id, ev.eventId));
}
const bookingRow = async (id: string) => {
  const { bookings } = tables();
  const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, id));
  return row!;
};
const countOf = (ticketTypeId: string) => countOfOn(t.deps.db, ticketTypeId);
const mailOf = (key: string) => mailOn(t, key);
const refundOf = (paymentId: string) => refundOn(t, paymentId);
const quote = (bookingId: string, cookie: string) =>
  callProcedure(t, 'query', 'bookings.cancellationQuote', { bookingId }, { cookie });
const cancel = (bookingId: string, cookie: string) =>
  callProcedure(t, 'mutation', 'bookings.cancel', { bookingId }, { cookie });

describe('a buyer cancels their own booking', () => {
  it.each([
    [
      'full',
      null,
      (b: { totalAmountPaise: number; feeAmountPaise: number; igstAmountPaise: number }) =>
        b.totalAmountPaise,
    ],
    [
      'minus_fee',
      null,
      (b: { totalAmountPaise: number; feeAmountPaise: number; igstAmountPaise: number }) =>
        b.totalAmountPaise - b.feeAmountPaise - b.igstAmountPaise,
    ],
    ['percent', 50, (b: { totalAmountPaise: number }) => Math.floor(b.totalAmountPaise / 2)],
  ] as const)(
    '%s: quotes the amount, cancels, refunds it once, seats back, mails, gate refuses',
    async (rule, percent, expected) => {
      await setPolicy(rule, percent);
      const typeId = ev.ticketTypeIds[0]!;
      const { bookingId, buyer, paymentId } = await buyTickets(t, ev, 3);
      const booked = await bookingRow(bookingId);
      expect(booked.feeAmountPaise).toBeGreaterThan(0);
      expect(booked.igstAmountPaise).toBeGreaterThan(0);
      const amount = expected(booked);
      const before = await countOf(typeId);

      const q = await quote(bookingId, buyer.cookie);
      expect(q.data).toMatchObject({ cancellable: true, refundAmountPaise: amount });

      const res = await cancel(bookingId, buyer.cookie);
      expect(res.data).toEqual({ cancelled: true, refundAmountPaise: amount });
      expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', cancelReason: 'buyer' });
      expect(await countOf(typeId)).toMatchObject({ sold: 0, available: before.available + 3 });
      expect(await refundOf(paymentId)).toMatchObject({
        status: 'processed',
        reason: 'buyer_cancelled',
        amountPaise: amount,
      });
      const mail = (await mailOf(`booking-cancelled:${bookingId}`))!;
      expect(mail.text).toContain('As you asked, your booking is cancelled.');
      expect(mail.text).toContain(`₹`);
      expect(await mailOf(`booking-refunded:${bookingId}`)).toBeTruthy();

      // Twice: nothing more is refunded, seats are not released twice.
      const again = await cancel(bookingId, buyer.cookie);
      expect(again.data).toEqual({ cancelled: false, refundAmountPaise: 0 });
      const { refunds } = tables();
      expect(await t.deps.db.select().from(refunds).where(eq(refunds.paymentId, paymentId))).toHaveLength(1);
      expect(await countOf(typeId)).toMatchObject({ sold: 0, available: before.available + 3 });
      expect((await quote(bookingId, buyer.cookie)).data).toMatchObject({
        cancellable: false,
        reason: CANCEL_REFUSALS.alreadyCancelled,
      });

      const gate = await recordScan(
        t.deps.db,
        t.deps.appSecret,
        { eventId: ev.eventId, staffUserId: buyer.userId },
        {
          slotId: ev.slotId,
          gate: 'North gate',
          deviceId: 'test-device',
          scanId: `scan-${bookingId}`,
          token: signTicketToken(t.deps.appSecret, bookingId),
          persons: 1,
        },
        t.clock.now(),
      );
      expect(gate).toMatchObject({ outcome: 'refuse', message: GATE_MESSAGES.cancelled });
    },
  );

  async function expectRefused(bookingId: string, cookie: string, reason: string, paymentId: string) {
    expect((await quote(bookingId, cookie)).data).toMatchObject({ cancellable: false, reason });
    const res = await cancel(bookingId, cookie);
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe(reason);
    expect((await bookingRow(bookingId)).status).toBe('confirmed');
    expect(await refundOf(paymentId)).toBeUndefined();
  }

  it('refuses a booking with a non-refundable ticket type', async () => {
    const { bookingId, buyer, paymentId } = await buyTickets(t, ev, 1);
    const { ticketTypes } = tables();
    await t.deps.db
      .update(ticketTypes)
      .set({ isRefundable: false })
      .where(eq(ticketTypes.id, ev.ticketTypeIds[0]!));
    await expectRefused(bookingId, buyer.cookie, CANCEL_REFUSALS.notRefundable, paymentId);
  });

  it('refuses a checked-in booking', async () => {
    const { bookingId, buyer, paymentId } = await buyTickets(t, ev, 1);
    const { bookings } = tables();
    await t.deps.db.update(bookings).set({ numberOfUserCheckedIn: 1 }).where(eq(bookings.id, bookingId));
    await expectRefused(bookingId, buyer.cookie, CANCEL_REFUSALS.checkedIn, paymentId);
  });

  it('refuses a booking whose admission gate staff undid: anything ever admitted counts (issue 35)', async () => {
    const { bookingId, buyer, paymentId } = await buyTickets(t, ev, 1);
    const caller = { eventId: ev.eventId, staffUserId: (await signedInUser(t)).userId };
    const where = { slotId: ev.slotId, gate: 'North gate', deviceId: 'test-device' };
    const scanId = `scan-${bookingId}`;
    const token = signTicketToken(t.deps.appSecret, bookingId);
    const admitted = await recordScan(
      t.deps.db,
      t.deps.appSecret,
      caller,
      { ...where, scanId, token, persons: 1 },
      t.clock.now(),
    );
    expect(admitted.outcome).toBe('admit');
    // The attack: the gate takes the admission back, so today's count is 0 again…
    await undoAdmission(
      t.deps.db,
      caller,
      { ...where, undoId: `undo-${bookingId}`, scanId, reason: 'Scanned the wrong ticket' },
      t.clock.now(),
    );
    expect((await bookingRow(bookingId)).numberOfUserCheckedIn).toBe(0);
    // …but the person walked in: the buyer may not cancel the used ticket for a refund.
    await expectRefused(bookingId, buyer.cookie, CANCEL_REFUSALS.checkedIn, paymentId);
  });

  it('refuses after the cut-off, and allows just before it', async () => {
    const { bookingId, buyer, paymentId } = await buyTickets(t, ev, 1);
    const start = Date.parse(ev.slotStart);
    await setPolicy('full', null, 48);
    t.clock.set(new Date(start - 48 * 3_600_000 - 60_000));
    expect((await quote(bookingId, buyer.cookie)).data).toMatchObject({ cancellable: true });
    t.clock.set(new Date(start - 48 * 3_600_000));
    await expectRefused(bookingId, buyer.cookie, CANCEL_REFUSALS.pastCutoff(48), paymentId);
  });

  it('refuses when the slot or the event is cancelled', async () => {
    const { bookingId, buyer, paymentId } = await buyTickets(t, ev, 1);
    const { events, slots } = tables();
    await t.deps.db.update(events).set({ status: 'cancelled' }).where(eq(events.id, ev.eventId));
    await expectRefused(bookingId, buyer.cookie, CANCEL_REFUSALS.showCancelled, paymentId);
    await t.deps.db.update(events).set({ status: 'published' }).where(eq(events.id, ev.eventId));
    await t.deps.db
      .update(slots)
      .set({ cancelledAt: t.clock.now().toISOString() })
      .where(eq(slots.id, ev.slotId));
    await expectRefused(bookingId, buyer.cookie, CANCEL_REFUSALS.showCancelled, paymentId);
  });

  it("another user's booking id answers NOT_FOUND and changes nothing", async () => {
    const { bookingId, paymentId } = await buyTickets(t, ev, 1);
    const stranger = await signedInUser(t);
    const q = await quote(bookingId, stranger.cookie);
    expect(q.status).toBe(404);
    const res = await cancel(bookingId, stranger.cookie);
    expect(res.status).toBe(404);
    expect(res.body.error?.message).toBe('Booking not found');
    expect((await bookingRow(bookingId)).status).toBe('confirmed');
    expect(await refundOf(paymentId)).toBeUndefined();
  });
});
