/**
 * Moving a show to another date or time: tickets stay valid, holders are mailed, and a move to another
 * date opens a full-refund window. Runs on both engines (vitest.config.ts ON_BOTH_ENGINES).
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EDITOR_MESSAGES } from '../../shared/event-editor-schemas.ts';
import { formatPaiseExact } from '../../shared/money.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { CANCEL_REFUSALS } from '../../src-server/services/bookings/buyer-cancellation.ts';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import type { Caller, ConsoleWorld } from '../helpers/console-world.ts';
import { buy as buyTickets, consoleWorld, refundOn, versionOn } from '../helpers/engine-fixtures.ts';
import { expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let t: TestApp;
let w: ConsoleWorld;
beforeEach(async () => {
  t = await createTestAppOn(testEngine());
  w = await consoleWorld(t);
  // The organiser issues GST invoices, so a refund must come with credit notes.
  await saveTaxProfile(t, w.people.owner.userId);
  // Non-refundable tickets: without a move to another date, nobody may cancel them.
  const { ticketTypes } = tables();
  await t.deps.db
    .update(ticketTypes)
    .set({ isRefundable: false })
    .where(inArray(ticketTypes.id, w.event.ticketTypeIds));
});
afterEach(async () => {
  await expectInventoryInvariantOn(t.deps.db);
  await t.close();
});

/** The engine's tables, for the rows this file reads itself. */
const tables = () => tablesOf(t.deps.db);
const as = (caller: Caller) => ({ cookie: w.cookieOf(caller) });
const versionOf = (eventId: string) => versionOn(t, eventId);
/** The fixture show is Sat 5 Dec 2026, 7:00-11:00 PM India time. */
const move = async (fields: { day?: string; startTime: string; endTime: string }, caller: Caller = 'owner') =>
  callProcedure(
    t,
    'mutation',
    'organiser.updateSlotTime',
    {
      eventId: w.event.eventId,
      version: await versionOf(w.event.eventId),
      slotId: w.event.slotId,
      ...fields,
    },
    as(caller),
  );
const quote = (bookingId: string, cookie: string) =>
  callProcedure(t, 'query', 'bookings.cancellationQuote', { bookingId }, { cookie });
const movedMail = async (bookingId: string) => {
  const { outbox } = tables();
  return (await t.deps.db.select().from(outbox)).find((m) =>
    m.idempotencyKey.startsWith(`slot-moved:${bookingId}:`),
  );
};
const bookingRow = async (id: string) => {
  const { bookings } = tables();
  const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, id));
  return row!;
};
const slotRow = async (id: string) => {
  const { slots } = tables();
  const [row] = await t.deps.db.select().from(slots).where(eq(slots.id, id));
  return row;
};

describe('rescheduling a show to another date', () => {
  it('keeps tickets valid at the gate, mails every holder, records the move, and lets holders of non-refundable tickets cancel for a full refund', async () => {
    const a = await buyTickets(t, w.event, 2);
    const b = await buyTickets(t, w.event, 1);
    expect((await quote(a.bookingId, a.buyer.cookie)).data).toMatchObject({
      cancellable: false,
      reason: CANCEL_REFUSALS.notRefundable,
    });

    // A co-organiser may move it (they may cancel a slot too): to Sat 12 Dec, 6:00-9:00 PM.
    const res = await move({ day: '2026-12-12', startTime: '18:00', endTime: '21:00' }, 'co-organiser');
    expect(res.data).toMatchObject({ holdersMailed: 2, dateMoved: true });

    // The slot is on a new date of the event; the old, now empty date is gone.
    const slot = (await slotRow(w.event.slotId))!;
    expect(slot).toMatchObject({
      startTime: '2026-12-12T12:30:00.000Z',
      endTime: '2026-12-12T15:30:00.000Z',
    });
    const { eventDates } = tables();
    const dates = await t.deps.db.select().from(eventDates).where(eq(eventDates.eventId, w.event.eventId));
    expect(dates).toEqual([
      expect.objectContaining({ id: slot.eventDateId, dateOfEvent: '2026-12-11T18:30:00.000Z' }),
    ]);

    for (const booking of [a, b]) {
      const mail = (await movedMail(booking.bookingId))!;
      expect(mail.subject).toContain('New date for');
      expect(mail.text).toContain('Was: 05 Dec 2026, 7:00 PM - 11:00 PM (India time)');
      expect(mail.text).toContain('Now: 12 Dec 2026, 6:00 PM - 9:00 PM (India time)');
      expect(mail.text).toContain('Your ticket stays valid for the new date');
      const total = (await bookingRow(booking.bookingId)).totalAmountPaise;
      expect(mail.text).toContain(`full refund of ${formatPaiseExact(total)}`);
      expect(mail.text).toContain('until 12 Dec 2026, 6:00 PM (India time)');
    }

    // The buyer's booking page shows the new date and where it moved from.
    const page = await callProcedure(
      t,
      'query',
      'bookings.byId',
      { bookingId: a.bookingId },
      { cookie: a.buyer.cookie },
    );
    expect(page.data).toMatchObject({
      ticketSlot: '2026-12-12T12:30:00.000Z',
      ticketSlotEnd: '2026-12-12T15:30:00.000Z',
      rescheduledFrom: w.event.slotStart,
    });

    // Non-refundable, yet the move lets the holder cancel for the whole amount, credit notes included.
    const total = (await bookingRow(a.bookingId)).totalAmountPaise;
    expect((await quote(a.bookingId, a.buyer.cookie)).data).toMatchObject({
      cancellable: true,
      rescheduled: true,
      refundAmountPaise: total,
      cutoffAt: '2026-12-12T12:30:00.000Z',
    });
    const cancelled = await callProcedure(
      t,
      'mutation',
      'bookings.cancel',
      { bookingId: a.bookingId },
      { cookie: a.buyer.cookie },
    );
    expect(cancelled.data).toEqual({ cancelled: true, refundAmountPaise: total });
    expect(await refundOn(t, a.paymentId)).toMatchObject({ status: 'processed', amountPaise: total });
    const { invoices, creditNotes } = tables();
    const issued = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, a.bookingId));
    expect(issued.length).toBeGreaterThan(0);
    const notes = await t.deps.db.select().from(creditNotes);
    for (const invoice of issued) {
      expect(notes.find((n) => n.invoiceId === invoice.id)?.totalPaise).toBe(invoice.totalPaise);
    }

    // The other holder's QR still admits them, at the new time.
    t.clock.set(new Date('2026-12-12T12:20:00.000Z'));
    const token = (
      (
        await callProcedure(
          t,
          'query',
          'bookings.byId',
          { bookingId: b.bookingId },
          { cookie: b.buyer.cookie },
        )
      ).data as { qrToken: string }
    ).qrToken;
    const scan = await callProcedure(
      t,
      'mutation',
      'gate.scan',
      {
        eventId: w.event.eventId,
        slotId: w.event.slotId,
        gate: 'North gate',
        deviceId: 'device-1',
        scanId: randomUUID(),
        token,
        persons: 1,
      },
      as('gate staff'),
    );
    expect(scan.data as GateScanResult).toMatchObject({ outcome: 'admit', persons: 1 });

    // Once the show has started the window is closed.
    t.clock.set(new Date('2026-12-12T12:31:00.000Z'));
    expect((await quote(b.bookingId, b.buyer.cookie)).data).toMatchObject({ cancellable: false });
  });

  it('moves onto an existing date of the event, and a booking made after the move has no refund window', async () => {
    const added = await callProcedure(
      t,
      'mutation',
      'organiser.addDate',
      { eventId: w.event.eventId, version: await versionOf(w.event.eventId), day: '2026-12-06' },
      as('owner'),
    );
    const dateId = (added.data as { dateId: string }).dateId;
    const before = await buyTickets(t, w.event, 1);
    expect((await move({ day: '2026-12-06', startTime: '19:00', endTime: '23:00' })).data).toMatchObject({
      dateMoved: true,
    });
    expect((await slotRow(w.event.slotId))?.eventDateId).toBe(dateId);
    expect((await quote(before.bookingId, before.buyer.cookie)).data).toMatchObject({ cancellable: true });

    // A buyer who opens the event page now books the show on its new date.
    const after = await buyTickets(t, { ...w.event, dateId }, 1);
    expect(await bookingRow(after.bookingId)).toMatchObject({
      ticketSlot: '2026-12-06T13:30:00.000Z',
      rescheduledFrom: null,
      rescheduleRefundUntil: null,
    });
    expect((await quote(after.bookingId, after.buyer.cookie)).data).toMatchObject({
      cancellable: false,
      reason: CANCEL_REFUSALS.notRefundable,
    });
  });

  it('a change of time on the same day mails the new time but opens no refund window', async () => {
    const a = await buyTickets(t, w.event, 1);
    expect((await move({ startTime: '20:30', endTime: '23:30' })).data).toMatchObject({
      holdersMailed: 1,
      dateMoved: false,
    });
    const mail = (await movedMail(a.bookingId))!;
    expect(mail.subject).toContain('New time for');
    expect(mail.text).not.toContain('full refund');
    expect(await bookingRow(a.bookingId)).toMatchObject({
      rescheduledFrom: w.event.slotStart,
      rescheduleRefundUntil: null,
    });
    expect((await quote(a.bookingId, a.buyer.cookie)).data).toMatchObject({
      cancellable: false,
      reason: CANCEL_REFUSALS.notRefundable,
    });
  });

  it('refuses a date in the past, a day that does not exist, and another live slot’s start', async () => {
    const past = await move({ day: '2026-11-20', startTime: '19:00', endTime: '23:00' });
    expect(past.body.error?.data.code).toBe('BAD_REQUEST');
    expect(past.body.error?.message).toBe(EDITOR_MESSAGES.slotMoveToPast);
    // Earlier today (the test clock is 21 Nov 2026, noon India time).
    const earlier = await move({ day: '2026-11-21', startTime: '09:00', endTime: '10:00' });
    expect(earlier.body.error?.message).toBe(EDITOR_MESSAGES.slotMoveToPast);
    for (const day of ['2026-13-45', '2027-02-30']) {
      const nonsense = await move({ day, startTime: '19:00', endTime: '23:00' });
      expect(nonsense.body.error?.data.code).toBe('BAD_REQUEST');
    }

    const date = await callProcedure(
      t,
      'mutation',
      'organiser.addDate',
      { eventId: w.event.eventId, version: await versionOf(w.event.eventId), day: '2026-12-12' },
      as('owner'),
    );
    await callProcedure(
      t,
      'mutation',
      'organiser.addSlot',
      {
        eventId: w.event.eventId,
        version: await versionOf(w.event.eventId),
        dateId: (date.data as { dateId: string }).dateId,
        startTime: '18:00',
        endTime: '21:00',
      },
      as('owner'),
    );
    const twin = await move({ day: '2026-12-12', startTime: '18:00', endTime: '22:00' });
    expect(twin.body.error?.data.code).toBe('CONFLICT');
    expect(twin.body.error?.message).toBe(EDITOR_MESSAGES.slotStartTaken);
    expect((await slotRow(w.event.slotId))?.startTime).toBe(w.event.slotStart);
  });

  it('gate staff and buyers may not move a show; another organiser’s slot answers not found', async () => {
    const fields = { day: '2026-12-12', startTime: '18:00', endTime: '21:00' };
    for (const caller of ['gate staff', 'buyer'] as const) {
      expect((await move(fields, caller)).body.error?.data.code).toMatch(/FORBIDDEN|NOT_FOUND/);
    }
    expect((await move(fields, 'organiser of another event')).body.error?.data.code).toBe('NOT_FOUND');
    // Their own event, our slot id.
    const theirs = await callProcedure(
      t,
      'mutation',
      'organiser.updateSlotTime',
      {
        eventId: w.otherEvent.eventId,
        version: await versionOf(w.otherEvent.eventId),
        slotId: w.event.slotId,
        ...fields,
      },
      as('organiser of another event'),
    );
    expect(theirs.body.error?.data.code).toBe('NOT_FOUND');
    expect((await slotRow(w.event.slotId))?.startTime).toBe(w.event.slotStart);
  });
});
