/**
 * Issue 40 "One QR per attendee" (ADR 0046): a ticket type set to one ticket per attendee gives each
 * ticket of a booking its own signed QR, name and check-in; the booking's QR of every other booking keeps
 * working; a part cancellation voids the cancelled attendees' QRs; offline devices get each attendee's
 * ticket on their list and merge its scans apart.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import type { MergedScan } from '../../src-server/services/gate/merge-offline-scans.ts';
import type { GateSync } from '../../src-server/services/gate/sync-slot.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { signAttendeeTicketToken, signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, ownedEvent, type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import { DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { pdfPageCount, pdfPageText } from '../helpers/pdf-text.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const { attendeeTickets, bookings, events, ticketTypes } = tablesFor(testEngine());
const sid = () => randomUUID();

async function ok(res: { status: number; body: unknown; data?: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data;
}

/** An event whose one type (2 persons per ticket) is switched to one ticket per attendee in the console. */
async function setUp() {
  t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
  const owner = await account(t, 'organiser');
  const ev = await ownedEvent(t, owner.userId);
  const type = ev.ticketTypeIds[0]!;
  await t.deps.db.update(ticketTypes).set({ personAllowedPerTicket: 2 }).where(eq(ticketTypes.id, type));
  const staff = await signedInUser(t, { email: 'gate@example.com', name: 'Ravi' });
  expect(await setGateStaff(t.deps.db, 'gate@example.com', ev.eventId, true, t.clock.now())).toBe('done');
  await ok(
    await callProcedure(
      t,
      'mutation',
      'console.setAttendeeNames',
      { eventId: ev.eventId, ticketTypeId: type, mode: 'optional' },
      { cookie: owner.cookie },
    ),
  );
  await setPerAttendee(ev, owner, true);
  return { owner, ev, type, staff };
}
type World = Awaited<ReturnType<typeof setUp>>;

/** The console's ticket-type editor with "One ticket per attendee" ticked (or not). */
async function setPerAttendee(ev: TicketedEvent, owner: Person, on: boolean) {
  const [type] = await t.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, ev.ticketTypeIds[0]!));
  if (!type) throw new Error('no ticket type');
  const [event] = await t.deps.db.select().from(events).where(eq(events.id, ev.eventId));
  const version = event!.version;
  await ok(
    await callProcedure(
      t,
      'mutation',
      'organiser.updateTicketType',
      {
        eventId: ev.eventId,
        version,
        ticketTypeId: type.id,
        ticket: {
          name: type.name,
          priceRupees: type.pricePaise / 100,
          totalTickets: type.totalTickets,
          maxPerOrder: type.maxPerOrder,
          personAllowedPerTicket: type.personAllowedPerTicket,
          description: type.description,
          benefits: type.benefits,
          isRefundable: type.isRefundable,
          onSale: true,
          perAttendeeTickets: on,
          saleOpensAt: null,
          saleClosesAt: null,
        },
      },
      { cookie: owner.cookie },
    ),
  );
}

/** Three tickets through the real checkout, the first two named. */
async function buyThree(w: World) {
  const buyer = await signedInUser(t);
  const session = (await ok(
    await callProcedure(
      t,
      'mutation',
      'payments.start',
      {
        eventId: w.ev.eventId,
        selectedDate: w.ev.dateId,
        selectedSlot: w.ev.slotId,
        selectedTickets: [{ ticketTypeId: w.type, quantity: 3 }],
        ticketDetails: DETAILS,
        answers: {
          names: [
            { ticketTypeId: w.type, position: 1, name: 'Asha Verma' },
            { ticketTypeId: w.type, position: 2, name: 'Priya Verma' },
          ],
          answers: [],
        },
      },
      { cookie: buyer.cookie },
    ),
  )) as { orderId: string };
  const confirmed = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
  const bookingId = (confirmed.data as { bookingId: string }).bookingId;
  const token = (position: number) =>
    signAttendeeTicketToken(t.deps.appSecret, bookingId, 0, { ticketTypeId: w.type, position });
  return { buyer, bookingId, token };
}

function scanWith(
  w: World,
  token: string,
  extra: { persons?: number; scanId?: string } = {},
  cookie?: string,
) {
  return callProcedure(
    t,
    'mutation',
    'gate.scan',
    {
      eventId: w.ev.eventId,
      slotId: w.ev.slotId,
      gate: 'North gate',
      deviceId: 'device-1',
      scanId: extra.scanId ?? sid(),
      token,
      persons: extra.persons,
    },
    { cookie: cookie ?? w.staff.cookie },
  );
}
const answerOf = async (res: Promise<{ data?: unknown; status: number; body: unknown }>) =>
  (await ok(await res)) as GateScanResult;

/**
 * The text of every page: pdfPageText once per content stream. (The shared helper resumes its search
 * inside "endstream", so it reads every other stream: one page of a several-page ticket PDF.)
 */
function everyPageText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  for (let at = raw.indexOf('stream\n'); at >= 0; at = raw.indexOf('stream\n', at + 1)) {
    if (raw.slice(at - 3, at) === 'end') continue;
    const end = raw.indexOf('endstream', at);
    if (end < 0) break;
    const one = Buffer.concat([
      Buffer.from('stream\n'),
      pdf.subarray(at + 'stream\n'.length, end),
      Buffer.from('endstream'),
    ]);
    parts.push(pdfPageText(one));
  }
  return parts.filter(Boolean).join('\n');
}

/** The booking's row as it is now. */
async function bookingRow(id: string) {
  const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, id));
  if (!row) throw new Error(`no booking ${id}`);
  return row;
}

describe('one QR per attendee', () => {
  it('shows each attendee their own QR and admits each apart: the same QR twice is refused, another attendee’s still admits', async () => {
    const w = await setUp();
    const { buyer, bookingId, token } = await buyThree(w);

    const page = (await ok(
      await callProcedure(t, 'query', 'bookings.byId', { bookingId }, { cookie: buyer.cookie }),
    )) as { bookingQrAdmits: boolean; attendeeTickets: { label: string; qrToken: string }[] };
    expect(page.bookingQrAdmits).toBe(false);
    expect(page.attendeeTickets.map((a) => a.label)).toEqual([
      'Ticket 1 of 3 · Asha Verma',
      'Ticket 2 of 3 · Priya Verma',
      'Ticket 3 of 3',
    ]);
    expect(page.attendeeTickets.map((a) => a.qrToken)).toEqual([token(1), token(2), token(3)]);

    // Priya's QR: a 2-person ticket asks how many, then admits her ticket's two and names her.
    const ask = await answerOf(scanWith(w, token(2)));
    expect(ask).toMatchObject({
      outcome: 'ask',
      remaining: 2,
      ticket: { holderName: 'Priya Verma', allowed: 2, admitted: 0 },
    });
    const admitted = await answerOf(scanWith(w, token(2), { persons: 2, scanId: ask.scanId }));
    expect(admitted).toMatchObject({
      outcome: 'admit',
      persons: 2,
      ticket: { bookingId, holderName: 'Priya Verma', allowed: 2, admitted: 2 },
    });
    // The same QR again: already used. Asha's of the same booking still admits.
    expect(await answerOf(scanWith(w, token(2), { persons: 1 }))).toMatchObject({
      outcome: 'refuse',
      reason: 'used',
      ticket: { holderName: 'Priya Verma' },
    });
    expect(await answerOf(scanWith(w, token(1), { persons: 2 }))).toMatchObject({
      outcome: 'admit',
      ticket: { holderName: 'Asha Verma', admitted: 2, allowed: 2 },
    });
    // The booking counts everyone (dashboards); its own QR has nobody left to admit.
    expect((await bookingRow(bookingId)).numberOfUserCheckedIn).toBe(4);
    expect(
      await answerOf(scanWith(w, signTicketToken(t.deps.appSecret, bookingId), { persons: 1 })),
    ).toMatchObject({ outcome: 'refuse', reason: 'per-attendee' });
    // The PDF: a page per attendee with their line, no booking page (its QR admits nobody).
    const res = await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie: buyer.cookie } });
    expect(res.status).toBe(200);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdfPageCount(pdf)).toBe(3);
    const text = everyPageText(pdf);
    for (const line of ['Ticket 1 of 3 · Asha Verma', 'Ticket 2 of 3 · Priya Verma', 'Ticket 3 of 3'])
      expect(text).toContain(line);
    // An attendee's QR does not open the booking's page (with everyone else's QRs) by link.
    const byToken = await callProcedure(t, 'query', 'bookings.byId', { bookingId, token: token(3) });
    expect(byToken.status).toBe(404);
  });

  it('keeps admitting the per-booking QR of a booking made before the setting', async () => {
    const w = await setUp();
    const buyer = await signedInUser(t);
    const old = await createBookingOn(t, {
      userId: buyer.userId,
      eventId: w.ev.eventId,
      slotId: w.ev.slotId,
      ticketTypes: [
        {
          id: w.type,
          name: 'Gold Circle',
          pricePaise: 99_999,
          quantity: 2,
          personAllowedPerTicket: 2,
          totalPersons: 4,
        },
      ],
    });
    const answer = await answerOf(
      scanWith(w, signTicketToken(t.deps.appSecret, old.bookingId), { persons: 4 }),
    );
    expect(answer).toMatchObject({ outcome: 'admit', persons: 4, ticket: { allowed: 4, admitted: 4 } });
    expect(answer.outcome === 'admit' && answer.ticket.ticketId).toBeUndefined();
  });

  it('refuses a forged position, a position the booking does not have, and another event’s staff', async () => {
    const w = await setUp();
    const { bookingId, token } = await buyThree(w);
    const real = token(1);
    const forged = real.replace(`+${w.type}+1.`, `+${w.type}+2.`);
    expect(forged).not.toBe(real);
    // A booking token's signature on an attendee subject, and the other way round, never verify.
    const bookingSig = signTicketToken(t.deps.appSecret, bookingId).split('.')[1];
    for (const bad of [
      forged,
      `${bookingId}+${w.type}+1.${bookingSig}`,
      `${bookingId}.${real.split('.')[1]}`,
    ])
      expect(await answerOf(scanWith(w, bad, { persons: 1 }))).toMatchObject({
        outcome: 'refuse',
        reason: 'invalid',
        ticket: null,
      });
    // Correctly signed, but the booking has no ticket 9.
    expect(
      await answerOf(
        scanWith(
          w,
          signAttendeeTicketToken(t.deps.appSecret, bookingId, 0, { ticketTypeId: w.type, position: 9 }),
          { persons: 1 },
        ),
      ),
    ).toMatchObject({ outcome: 'refuse', reason: 'invalid' });

    // Another event's gate staff: this event's gate answers NOT_FOUND; their own gate says "another event".
    const otherOwner = await account(t, 'organiser');
    const other = await ownedEvent(t, otherOwner.userId, 'Another show');
    const otherStaff = await signedInUser(t, { email: 'other-gate@example.com' });
    expect(await setGateStaff(t.deps.db, 'other-gate@example.com', other.eventId, true, t.clock.now())).toBe(
      'done',
    );
    const here = await scanWith(w, real, { persons: 1 }, otherStaff.cookie);
    expect(here.status).toBe(404);
    const there = await callProcedure(
      t,
      'mutation',
      'gate.scan',
      {
        eventId: other.eventId,
        slotId: other.slotId,
        gate: 'Main',
        deviceId: 'd-2',
        scanId: sid(),
        token: real,
        persons: 1,
      },
      { cookie: otherStaff.cookie },
    );
    expect(there.data).toMatchObject({ outcome: 'refuse', reason: 'other-event', ticket: null });
    expect((await bookingRow(bookingId)).numberOfUserCheckedIn).toBe(0);

    // After a transfer (generation 1) the QRs made before it are refused; the new ones admit.
    await t.deps.db.update(bookings).set({ transferCount: 1 }).where(eq(bookings.id, bookingId));
    expect(await answerOf(scanWith(w, real, { persons: 1 }))).toMatchObject({ reason: 'transferred' });
    const renewed = signAttendeeTicketToken(t.deps.appSecret, bookingId, 1, {
      ticketTypeId: w.type,
      position: 1,
    });
    expect(await answerOf(scanWith(w, renewed, { persons: 2 }))).toMatchObject({ outcome: 'admit' });
  });

  it('voids the cancelled attendees’ QRs on a part cancellation: the highest positions nobody used', async () => {
    const w = await setUp();
    const { bookingId, token } = await buyThree(w);
    await answerOf(scanWith(w, token(3), { persons: 2 }));
    const part = await callProcedure(
      t,
      'mutation',
      'eventBookings.refundPart',
      {
        eventId: w.ev.eventId,
        bookingId,
        amountPaise: 100,
        reason: 'One guest cannot come',
        cancelTickets: [{ ticketTypeId: w.type, quantity: 1 }],
      },
      { cookie: w.owner.cookie },
    );
    await ok(part);
    // Ticket 3 was used at the gate: ticket 2 (the highest unused) is the one cancelled.
    const voided = await t.deps.db
      .select({ position: attendeeTickets.position })
      .from(attendeeTickets)
      .where(and(eq(attendeeTickets.bookingId, bookingId), isNotNull(attendeeTickets.voidedAt)));
    expect(voided).toEqual([{ position: 2 }]);
    expect(await answerOf(scanWith(w, token(2), { persons: 1 }))).toMatchObject({
      outcome: 'refuse',
      reason: 'cancelled',
    });
    expect(await answerOf(scanWith(w, token(1), { persons: 2 }))).toMatchObject({ outcome: 'admit' });
    const row = await bookingRow(bookingId);
    expect([row.ticketCount, row.totalUserAllowed, row.numberOfUserCheckedIn]).toEqual([2, 4, 4]);
    // The organiser's booking page keeps the cancelled attendee's name, marked as no longer holding a ticket.
    const page = (await ok(
      await callProcedure(
        t,
        'query',
        'eventBookings.booking',
        { eventId: w.ev.eventId, bookingId },
        { cookie: w.owner.cookie },
      ),
    )) as { answers: { attendees: { position: number; name: string; cancelled: boolean }[] } };
    expect(page.answers.attendees.map((a) => [a.position, a.name, a.cancelled])).toEqual([
      [1, 'Asha Verma', false],
      [2, 'Priya Verma', true],
    ]);
  });

  it('undoes one attendee’s admission only', async () => {
    const w = await setUp();
    const { bookingId, token } = await buyThree(w);
    const first = await answerOf(scanWith(w, token(1), { persons: 2 }));
    await answerOf(scanWith(w, token(2), { persons: 2 }));
    const undo = await callProcedure(
      t,
      'mutation',
      'gate.undo',
      {
        eventId: w.ev.eventId,
        slotId: w.ev.slotId,
        gate: 'North gate',
        deviceId: 'device-1',
        undoId: sid(),
        scanId: first.scanId,
        reason: 'Scanned the wrong ticket',
      },
      { cookie: w.staff.cookie },
    );
    expect(await ok(undo)).toMatchObject({ undone: 2, ticket: { holderName: 'Asha Verma', admitted: 0 } });
    // The look-up's history of one attendee's ticket lists that ticket's admissions only.
    const history = (await ok(
      await callProcedure(
        t,
        'query',
        'gate.history',
        { eventId: w.ev.eventId, bookingId: `${bookingId}+${w.type}+1` },
        { cookie: w.staff.cookie },
      ),
    )) as { scanId: string; undone: object | null }[];
    expect(history.map((h) => [h.scanId, h.undone !== null])).toEqual([[first.scanId, true]]);
    // A resent scan answers what it did, on that attendee's ticket.
    expect(await answerOf(scanWith(w, token(1), { persons: 2, scanId: first.scanId }))).toMatchObject({
      outcome: 'admit',
      ticket: { holderName: 'Asha Verma', allowed: 2 },
    });
    expect((await bookingRow(bookingId)).numberOfUserCheckedIn).toBe(2);
    expect(await answerOf(scanWith(w, token(1), { persons: 2 }))).toMatchObject({ outcome: 'admit' });
    expect(await answerOf(scanWith(w, token(2), { persons: 1 }))).toMatchObject({ reason: 'used' });
  });

  it('puts each attendee’s ticket on the offline list and merges their offline scans apart', async () => {
    const w = await setUp();
    const { bookingId, token } = await buyThree(w);
    const sync = (await ok(
      await callProcedure(
        t,
        'query',
        'gate.sync',
        { eventId: w.ev.eventId, slotId: w.ev.slotId, ticketCursor: 0, feedCursor: 0 },
        { cookie: w.staff.cookie },
      ),
    )) as GateSync;
    const id = (p: number) => `${bookingId}+${w.type}+${p}`;
    expect(sync.tickets).toEqual(
      expect.arrayContaining([
        [bookingId, expect.any(String), expect.any(String), 0, 0, 0, expect.any(String)],
        [id(1), 'Asha Verma', 'Gold Circle', 2, 0, 0, expect.any(String)],
        [id(2), 'Priya Verma', 'Gold Circle', 2, 0, 0, expect.any(String)],
        [id(3), expect.any(String), 'Gold Circle', 2, 0, 0, expect.any(String)],
      ]),
    );
    // Two devices offline: one admits Asha and Priya, the other admits Asha again (a double entry).
    const at = t.clock.now().toISOString();
    const upload = (deviceId: string, scans: object[]) =>
      callProcedure(
        t,
        'mutation',
        'gate.upload',
        { eventId: w.ev.eventId, slotId: w.ev.slotId, gate: 'North gate', deviceId, scans },
        { cookie: w.staff.cookie },
      );
    const a = (await ok(
      await upload('d-1', [
        { scanId: sid(), token: token(1), decision: 'admit', persons: 2, scannedAt: at },
        { scanId: sid(), token: token(2), decision: 'admit', persons: 2, scannedAt: at },
      ]),
    )) as MergedScan[];
    expect(a.map((s) => [s.counted, s.excess])).toEqual([
      [2, 0],
      [2, 0],
    ]);
    const b = (await ok(
      await upload('d-2', [{ scanId: sid(), token: token(1), decision: 'admit', persons: 2, scannedAt: at }]),
    )) as MergedScan[];
    expect(b.map((s) => [s.counted, s.excess])).toEqual([[0, 2]]);
    expect((await bookingRow(bookingId)).numberOfUserCheckedIn).toBe(4);
    // Other devices learn of it from the feed, under each attendee's ticket id.
    const delta = (await ok(
      await callProcedure(
        t,
        'query',
        'gate.sync',
        {
          eventId: w.ev.eventId,
          slotId: w.ev.slotId,
          ticketCursor: sync.ticketCursor,
          feedCursor: sync.feedCursor,
        },
        { cookie: w.staff.cookie },
      ),
    )) as GateSync;
    expect(delta.feed.map((f) => [f[2], f[3]])).toEqual([
      [id(1), 2],
      [id(2), 2],
    ]);
    // Ticket 3 still admits online.
    expect(await answerOf(scanWith(w, token(3), { persons: 2 }))).toMatchObject({ outcome: 'admit' });
  });
});
