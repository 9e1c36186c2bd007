/**
 * Cancelling one booking, a slot, an event, and moving a slot's time: refunds, mails, the gate and
 * inventory. Runs on both engines (vitest.config.ts ON_BOTH_ENGINES).
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EDITOR_MESSAGES } from '../../shared/event-editor-schemas.ts';
import { GATE_MESSAGES } from '../../shared/gate-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { USED_BOOKING_REFUSAL } from '../../src-server/services/bookings/cancel-booking.ts';
import { cancelBookingsOfCancelledSlots } from '../../src-server/services/bookings/cancel-bookings-of-cancelled-slots.ts';
import { cancellationJob } from '../../src-server/services/bookings/cancellation-job.ts';
import { SLOT_CANCELLED_MESSAGE } from '../../src-server/services/checkout/start-checkout.ts';
import { cancelSlot } from '../../src-server/services/event-editor/cancel-slot.ts';
import { recordScan } from '../../src-server/services/gate/record-scan.ts';
import { runDueRefunds } from '../../src-server/services/refunds/run-due-refunds.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { confirm, payWithSimulator, proceed, startInput } from '../helpers/checkout-flow.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import {
  buy as buyTickets,
  consoleWorld,
  mailKeysOn,
  mailOn,
  refundOn,
  signedInUser,
  versionOn,
} from '../helpers/engine-fixtures.ts';
import { countOfOn, DETAILS, expectInventoryInvariantOn, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let t: TestApp;
let w: ConsoleWorld;
beforeEach(async () => {
  t = await createTestAppOn(testEngine());
  w = await consoleWorld(t);
});
afterEach(async () => {
  await expectInventoryInvariantOn(t.deps.db);
  await t.close();
});

/** The engine's tables, for the rows this file reads itself. */
const tables = () => tablesOf(t.deps.db);
const as = (caller: keyof ConsoleWorld['people']) => ({ cookie: w.people[caller].cookie });
const bookingStatus = async (id: string) => {
  const { bookings } = tables();
  const [row] = await t.deps.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id));
  return row?.s;
};
/** The statuses of `bought`'s bookings, in order. */
const statusesOf = (bought: { bookingId: string }[]) =>
  Promise.all(bought.map((b) => bookingStatus(b.bookingId)));
const countOf = (ticketTypeId: string) => countOfOn(t.deps.db, ticketTypeId);
const mailOf = (key: string) => mailOn(t, key);
const refundOf = (paymentId: string) => refundOn(t, paymentId);
const allRefunds = () => t.deps.db.select().from(tables().refunds);
const versionOf = (eventId: string) => versionOn(t, eventId);
/** Waits until every refund has reached the gateway (the cancel procedures start that work themselves). */
async function refundsSettled() {
  await expect
    .poll(
      async () => {
        await cancelBookingsOfCancelledSlots(t.deps);
        await runDueRefunds(t.deps);
        const { refunds } = tables();
        return (await t.deps.db.select().from(refunds).where(eq(refunds.status, 'pending'))).length;
      },
      { timeout: 5_000 },
    )
    .toBe(0);
}

describe('cancelling one booking', () => {
  it('cancels it, puts its seats back on sale, refunds in full, mails the buyer, and the gate refuses the ticket', async () => {
    const typeId = w.event.ticketTypeIds[0]!;
    const { bookingId, buyer, paymentId } = await buyTickets(t, w.event, 3);
    const before = await countOf(typeId);
    expect(before.sold).toBe(3);

    const res = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: w.event.eventId, bookingId },
      as('co-organiser'),
    );
    expect(res.data).toEqual({ cancelled: true });
    expect(await bookingStatus(bookingId)).toBe('cancelled');
    expect(await countOf(typeId)).toMatchObject({ sold: 0, available: before.available + 3 });
    expect(await refundOf(paymentId)).toMatchObject({ status: 'processed', reason: 'booking_cancelled' });

    const cancelled = (await mailOf(`booking-cancelled:${bookingId}`))!;
    expect(cancelled.to).toBe(DETAILS.email);
    expect(cancelled.text).toContain('The organiser has cancelled your booking.');
    expect(cancelled.text).toContain('A full refund of ₹');
    expect((await mailOf(`booking-refunded:${bookingId}`))?.subject).toContain('Refund issued');

    // The gate: "Cancelled booking", nobody admitted.
    const gate = await recordScan(
      t.deps.db,
      t.deps.appSecret,
      { eventId: w.event.eventId, staffUserId: w.people.owner.userId },
      {
        slotId: w.event.slotId,
        gate: 'North gate',
        deviceId: 'test-device',
        scanId: `scan-${bookingId}`,
        token: signTicketToken(t.deps.appSecret, bookingId),
        persons: 1,
      },
      t.clock.now(),
    );
    expect(gate).toMatchObject({ outcome: 'refuse', reason: 'cancelled', message: GATE_MESSAGES.cancelled });

    // The buyer's My Bookings shows it cancelled.
    const mine = await callProcedure(t, 'query', 'bookings.mine', undefined, { cookie: buyer.cookie });
    expect(mine.data).toEqual([expect.objectContaining({ id: bookingId, status: 'cancelled' })]);

    // Its ticket files are gone too.
    const pdf = await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie: buyer.cookie } });
    expect(pdf.status).toBe(410);

    // The seats are on sale again: someone else can buy them.
    await buyTickets(t, w.event, 3);
  });

  it('another event’s booking id answers not found; gate staff and buyers may not cancel', async () => {
    const { bookingId } = await buyTickets(t, w.event, 1);
    const other = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: w.otherEvent.eventId, bookingId },
      as('organiser of another event'),
    );
    expect(other.body.error?.data.code).toBe('NOT_FOUND');
    for (const caller of ['gate staff', 'buyer'] as const) {
      const res = await callProcedure(
        t,
        'mutation',
        'eventBookings.cancel',
        { eventId: w.event.eventId, bookingId },
        as(caller),
      );
      expect(res.body.error?.data.code).toMatch(/FORBIDDEN|NOT_FOUND/);
    }
    expect(await bookingStatus(bookingId)).toBe('confirmed');
  });

  it('a booking used at the gate: refused without an explicit choice; with it, refunded but its seats never go back on sale (issue 35)', async () => {
    const typeId = w.event.ticketTypeIds[0]!;
    // Capacity 2: two buyers of one ticket each, and the first walks in.
    const { ticketTypes } = tables();
    await t.deps.db
      .update(ticketTypes)
      .set({ totalTickets: 2, availableTickets: 2 })
      .where(eq(ticketTypes.id, typeId));
    const used = await buyTickets(t, w.event, 1);
    await buyTickets(t, w.event, 1);
    const scanned = await callProcedure(
      t,
      'mutation',
      'gate.scan',
      {
        eventId: w.event.eventId,
        slotId: w.event.slotId,
        gate: 'North gate',
        deviceId: 'device-1',
        scanId: `scan-${used.bookingId}`,
        token: signTicketToken(t.deps.appSecret, used.bookingId),
        persons: 1,
      },
      as('gate staff'),
    );
    expect(scanned.data).toMatchObject({ outcome: 'admit' });
    // Even after the gate undid it: that person walked in.
    const undone = await callProcedure(
      t,
      'mutation',
      'gate.undo',
      {
        eventId: w.event.eventId,
        slotId: w.event.slotId,
        gate: 'North gate',
        deviceId: 'device-1',
        undoId: `undo-${used.bookingId}`,
        scanId: `scan-${used.bookingId}`,
        reason: 'Wrong ticket scanned',
      },
      as('gate staff'),
    );
    expect(undone.status).toBe(200);
    const page = await callProcedure(
      t,
      'query',
      'eventBookings.booking',
      { eventId: w.event.eventId, bookingId: used.bookingId },
      as('owner'),
    );
    expect(page.data).toMatchObject({ usedAtGate: true });

    // The attack: the console's plain cancel of the used booking. Refused, nothing changed.
    const plain = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: w.event.eventId, bookingId: used.bookingId },
      as('owner'),
    );
    expect(plain.status).toBe(409);
    expect(plain.body.error?.message).toBe(USED_BOOKING_REFUSAL);
    expect(await bookingStatus(used.bookingId)).toBe('confirmed');
    expect(await refundOf(used.paymentId)).toBeUndefined();
    expect(await countOf(typeId)).toMatchObject({ available: 0 });

    // The organiser's explicit choice: the money goes back, the admitted seat stays off sale.
    const anyway = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: w.event.eventId, bookingId: used.bookingId, refundUsedTickets: true },
      as('owner'),
    );
    expect(anyway.data).toEqual({ cancelled: true });
    expect(await bookingStatus(used.bookingId)).toBe('cancelled');
    expect(await refundOf(used.paymentId)).toMatchObject({
      status: 'processed',
      reason: 'booking_cancelled',
    });
    expect(await countOf(typeId)).toMatchObject({ available: 0 });
    // Sold out still: a third person cannot buy the seat someone already walked in on.
    const buyer = await signedInUser(t);
    const proceedRes = await callProcedure(t, 'mutation', 'payments.start', startInput(w.event, 1), {
      cookie: buyer.cookie,
    });
    expect(proceedRes.status).toBe(409);
    expect(proceedRes.body.error?.message).toContain('Sold Out');
  });

  it('resends the ticket mail, a few times an hour at most, and never for a cancelled booking', async () => {
    const { bookingId } = await buyTickets(t, w.event, 1);
    const resend = () =>
      callProcedure(
        t,
        'mutation',
        'eventBookings.resendTicket',
        { eventId: w.event.eventId, bookingId },
        as('owner'),
      );
    for (let i = 0; i < 3; i++) {
      expect((await resend()).status).toBe(200);
      t.clock.advance(1_000);
    }
    const limited = await resend();
    expect(limited.body.error?.data.code).toBe('TOO_MANY_REQUESTS');
    const resentKeys = (await mailKeysOn(t)).filter((k) => k.startsWith(`booking-resent:${bookingId}`));
    expect(resentKeys).toHaveLength(3);
    // A resend is the confirmation mail again, its calendar entry included.
    const original = (await mailOf(`booking-confirmed:${bookingId}`))!;
    const resent = (await mailOf(resentKeys[0]!))!;
    const { to, subject, html, text } = original;
    expect(resent).toMatchObject({ to, subject, html, text });
    const calendar = (m: typeof original) =>
      m.attachments.map((a) => ({
        ...a,
        content: Buffer.from(a.content, 'base64')
          .toString('utf8')
          .replace(/DTSTAMP:\S+/, 'DTSTAMP'),
      }));
    expect(calendar(resent)).toEqual(calendar(original));
    expect(calendar(resent)[0]!.content).toContain(`UID:booking-${bookingId}@jalsa`);
    t.clock.advance(60 * 60_000);
    await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: w.event.eventId, bookingId },
      as('owner'),
    );
    expect((await resend()).body.error?.message).toContain('cancelled');
  });
});

describe('cancelling a slot', () => {
  it('names how many bookings it refunds, releases holds, cancels and refunds every booking, and sells nothing more', async () => {
    const a = await buyTickets(t, w.event, 2);
    const b = await buyTickets(t, w.event, 1);
    // Someone is at the payment step with seats held when the slot is cancelled.
    const late = await signedInUser(t);
    const lateSession = await proceed(t, late.cookie, w.event, 2);

    const preview = await callProcedure(
      t,
      'query',
      'organiser.cancellationPreview',
      { eventId: w.event.eventId, slotId: w.event.slotId },
      as('co-organiser'),
    );
    expect(preview.data).toMatchObject({ bookings: 2 });

    // A slot with bookings is the owner's to cancel (issue 35; the co-organiser's refusal is tested below).
    const res = await callProcedure(
      t,
      'mutation',
      'organiser.cancelSlot',
      { eventId: w.event.eventId, version: await versionOf(w.event.eventId), slotId: w.event.slotId },
      as('owner'),
    );
    expect(res.data).toMatchObject({ bookingsToRefund: 2 });
    const { holds } = tables();
    const [hold] = await t.deps.db.select().from(holds).where(eq(holds.id, lateSession.holdId));
    expect(hold?.status).toBe('released');
    await refundsSettled();
    for (const booking of [a, b]) {
      expect(await bookingStatus(booking.bookingId)).toBe('cancelled');
      expect(await refundOf(booking.paymentId)).toMatchObject({
        status: 'processed',
        reason: 'slot_cancelled',
      });
      expect((await mailOf(`booking-cancelled:${booking.bookingId}`))?.text).toContain('cancelled this show');
    }
    expect(await countOf(w.event.ticketTypeIds[0]!)).toMatchObject({ sold: 0, held: 0 });

    // Nothing more can be bought.
    const again = await callProcedure(t, 'mutation', 'payments.start', startInput(w.event, 1), {
      cookie: (await signedInUser(t)).cookie,
    });
    expect(again.body.error?.message).toBe(SLOT_CANCELLED_MESSAGE);

    // The payment of the hold that was open arrives afterwards: refunded, no booking.
    const paid = await payWithSimulator(t, lateSession.orderId);
    expect((await confirm(t, late.cookie, paid)).data).toMatchObject({ outcome: 'refunded' });
    expect(await refundOf(paid.razorpay_payment_id)).toMatchObject({
      reason: 'slot_cancelled',
      status: 'processed',
    });
    expect((await mailOf(`payment-refunded:${paid.razorpay_payment_id}`))?.text).toContain(
      'after the show was cancelled',
    );

    // The event page shows the slot cancelled.
    const detail = await callProcedure(t, 'query', 'events.byId', { id: w.event.eventId });
    expect(detail.data).toMatchObject({ tickets: [{ slots: [{ id: w.event.slotId, cancelled: true }] }] });

    // Cancelling it twice is refused; refunds stay one per payment.
    const twice = await callProcedure(
      t,
      'mutation',
      'organiser.cancelSlot',
      { eventId: w.event.eventId, version: await versionOf(w.event.eventId), slotId: w.event.slotId },
      as('owner'),
    );
    expect(twice.body.error?.data.code).toBe('CONFLICT');
    expect(twice.body.error?.message).toBe(EDITOR_MESSAGES.slotCancelled);
    expect(await allRefunds()).toHaveLength(3);
    // A cancelled slot's time is not moved either.
    const moved = await callProcedure(
      t,
      'mutation',
      'organiser.updateSlotTime',
      {
        eventId: w.event.eventId,
        version: await versionOf(w.event.eventId),
        slotId: w.event.slotId,
        startTime: '20:30',
        endTime: '23:30',
      },
      as('owner'),
    );
    expect(moved.body.error?.message).toBe(EDITOR_MESSAGES.slotCancelled);
  });

  it('a large slot is cancelled in bounded batches; the job finishes what one run leaves', async () => {
    const bought = [];
    for (let i = 0; i < 5; i++) bought.push(await buyTickets(t, w.event, 1));
    // The service alone (no background work started): the job does the rest.
    await cancelSlot(
      t.deps.db,
      t.clock,
      w.event.eventId,
      await versionOf(w.event.eventId),
      w.event.slotId,
      'owner',
    );
    expect(await cancelBookingsOfCancelledSlots(t.deps, { batch: 2, maxBatches: 1 })).toBe(2);
    expect((await statusesOf(bought)).filter((s) => s === 'cancelled')).toHaveLength(2);
    await expectInventoryInvariantOn(t.deps.db);
    await cancellationJob.run(t.deps);
    expect((await statusesOf(bought)).every((s) => s === 'cancelled')).toBe(true);
    await refundsSettled();
    expect(await allRefunds()).toHaveLength(5);
  });
});

describe('cancelling slots one by one (issue 35, item 10)', () => {
  it('a co-organiser may cancel a slot nobody has booked, never one with bookings: refunding buyers is the owner’s call', async () => {
    const shows = [w.event, await addShow(w.event, 1), await addShow(w.event, 2)];
    const bought = [];
    for (const show of shows) bought.push(await buyTickets(t, show, 1), await buyTickets(t, show, 1));
    const unbooked = await addShow(w.event, 3);
    const cancel = async (slotId: string, who: keyof ConsoleWorld['people']) =>
      callProcedure(
        t,
        'mutation',
        'organiser.cancelSlot',
        { eventId: w.event.eventId, version: await versionOf(w.event.eventId), slotId },
        as(who),
      );
    // The attack: every slot cancelled by a co-organiser, every booking refunded, the event over
    // without the owner's say. The refusal: a slot with bookings is the owner's (or an admin's) to
    // cancel, like the whole event; nothing changes.
    for (const show of shows) {
      const refused = await cancel(show.slotId, 'co-organiser');
      expect(refused.status).toBe(403);
      expect(refused.body.error?.message).toBe(EDITOR_MESSAGES.bookedSlotOwnersCall);
    }
    await refundsSettled();
    expect((await statusesOf(bought)).every((s) => s === 'confirmed')).toBe(true);
    expect(await allRefunds()).toEqual([]);
    // A slot nobody booked is still the co-organiser's to cancel; a booked one, the owner's.
    expect((await cancel(unbooked.slotId, 'co-organiser')).status).toBe(200);
    expect((await cancel(shows[0]!.slotId, 'owner')).status).toBe(200);
    expect((await cancel(shows[1]!.slotId, 'admin')).status).toBe(200);
  });
});

/** Another date of `ev`'s event `daysLater`, with one slot and one ticket type on sale. */
async function addShow(ev: TicketedEvent, daysLater: number): Promise<TicketedEvent> {
  const id = `${ev.eventId}-plus${daysLater}`;
  const shift = (iso: string) => new Date(Date.parse(iso) + daysLater * 24 * 60 * 60 * 1000).toISOString();
  const { eventDates, slots, ticketTypes } = tables();
  await t.deps.db
    .insert(eventDates)
    .values({ id: `${id}-date`, eventId: ev.eventId, dateOfEvent: shift(ev.slotStart) });
  await t.deps.db.insert(slots).values({
    id: `${id}-slot`,
    eventDateId: `${id}-date`,
    startTime: shift(ev.slotStart),
    endTime: shift(ev.slotEnd),
  });
  await t.deps.db.insert(ticketTypes).values({
    id: `${id}-type`,
    slotId: `${id}-slot`,
    name: 'Silver',
    pricePaise: 50_000,
    totalTickets: 20,
    availableTickets: 20,
  });
  return {
    ...ev,
    dateId: `${id}-date`,
    slotId: `${id}-slot`,
    slotStart: shift(ev.slotStart),
    slotEnd: shift(ev.slotEnd),
    ticketTypeIds: [`${id}-type`],
  };
}

describe('cancelling an event', () => {
  it('only the owner (or an admin) may; every booking is refunded and the event page says cancelled', async () => {
    const a = await buyTickets(t, w.event, 2);
    const input = async () => ({ eventId: w.event.eventId, version: await versionOf(w.event.eventId) });
    const co = await callProcedure(t, 'mutation', 'organiser.cancelEvent', await input(), as('co-organiser'));
    expect(co.body.error?.data.code).toBe('FORBIDDEN');

    const preview = await callProcedure(
      t,
      'query',
      'organiser.cancellationPreview',
      { eventId: w.event.eventId },
      as('owner'),
    );
    expect(preview.data).toMatchObject({ bookings: 1 });
    const res = await callProcedure(t, 'mutation', 'organiser.cancelEvent', await input(), as('owner'));
    expect(res.data).toMatchObject({ bookingsToRefund: 1 });
    await refundsSettled();
    expect(await bookingStatus(a.bookingId)).toBe('cancelled');
    expect((await mailOf(`booking-cancelled:${a.bookingId}`))?.text).toContain('cancelled the event');
    expect(await mailKeysOn(t)).toContain(`booking-refunded:${a.bookingId}`);

    const detail = await callProcedure(t, 'query', 'events.byId', { id: w.event.eventId });
    expect(detail.data).toMatchObject({ status: 'cancelled' });
    const start = await callProcedure(t, 'mutation', 'payments.start', startInput(w.event, 1), {
      cookie: (await signedInUser(t)).cookie,
    });
    expect(start.body.error?.data.code).toBe('NOT_FOUND');
    const edit = await callProcedure(t, 'mutation', 'organiser.cancelEvent', await input(), as('owner'));
    expect(edit.body.error?.message).toBe('A cancelled event cannot be edited.');
  });
});

describe('moving a slot’s time', () => {
  it('mails every ticket holder the old and the new time in India time, and their tickets show the new one', async () => {
    const a = await buyTickets(t, w.event, 1);
    const b = await buyTickets(t, w.event, 2);
    // The slot is 5 Dec 2026, 7:00-11:00 PM India time; move it to 8:30-11:30 PM.
    const res = await callProcedure(
      t,
      'mutation',
      'organiser.updateSlotTime',
      {
        eventId: w.event.eventId,
        version: await versionOf(w.event.eventId),
        slotId: w.event.slotId,
        startTime: '20:30',
        endTime: '23:30',
      },
      as('co-organiser'),
    );
    expect(res.data).toMatchObject({ holdersMailed: 2 });
    for (const booking of [a, b]) {
      const { outbox, bookings } = tables();
      const mail = (await t.deps.db.select().from(outbox)).find((m) =>
        m.idempotencyKey.startsWith(`slot-moved:${booking.bookingId}:`),
      )!;
      expect(mail.text).toContain('Was: 05 Dec 2026, 7:00 PM - 11:00 PM (India time)');
      expect(mail.text).toContain('Now: 05 Dec 2026, 8:30 PM - 11:30 PM (India time)');
      const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, booking.bookingId));
      expect(row!.ticketSlot).toBe('2026-12-05T15:00:00.000Z');
    }

    // An edit based on the old version is refused.
    const stale = await callProcedure(
      t,
      'mutation',
      'organiser.updateSlotTime',
      {
        eventId: w.event.eventId,
        version: (await versionOf(w.event.eventId)) - 1,
        slotId: w.event.slotId,
        startTime: '18:00',
        endTime: '22:00',
      },
      as('owner'),
    );
    expect(stale.body.error?.data.code).toBe('CONFLICT');
  });
});
