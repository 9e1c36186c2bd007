import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import { listCheckInsSteps } from '../../src-server/services/gate/list-check-ins.ts';
import type { MergedScan } from '../../src-server/services/gate/merge-offline-scans.ts';
import type { GateSync } from '../../src-server/services/gate/sync-slot.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { type CreatedBooking, createBookingOn } from '../helpers/bookings.ts';
import { type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import { signLegacyTicketToken } from '../helpers/legacy-ticket-token.ts';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const sid = () => randomUUID();
const { bookings, gateScans } = tablesFor(testEngine());

describe('the gate: per-event rights, scans, the log, undo, offline merge', () => {
  let t: TestApp;
  let staff: Person;
  let buyer: Person;
  let main: CreatedBooking;

  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    buyer = await signedInUser(t);
    // 2 tickets × 2 people = 4 entries, Sat 5 Dec 2026, 7 PM India time.
    main = await createBookingOn(t, { userId: buyer.userId, userName: 'Asha Rao' });
    staff = await signedInUser(t, { email: 'gate@example.com', name: 'Ravi' });
    expect(await setGateStaff(t.deps.db, ' Gate@Example.com ', main.eventId, true, t.clock.now())).toBe(
      'done',
    );
  });
  afterEach(async () => {
    await t.close();
  });

  /** The booking's row as it is now. */
  const bookingRow = async (bookingId: string) =>
    (await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0];

  const scan = async (
    token: string,
    extra: { persons?: number; gate?: string; scanId?: string; eventId?: string; slotId?: string } = {},
    cookie = staff.cookie,
  ) => {
    const res = await callProcedure(
      t,
      'mutation',
      'gate.scan',
      {
        eventId: extra.eventId ?? main.eventId,
        slotId: extra.slotId ?? main.row.slotId,
        gate: extra.gate ?? 'North gate',
        deviceId: 'device-1',
        scanId: extra.scanId ?? sid(),
        token,
        persons: extra.persons,
      },
      { cookie },
    );
    return { status: res.status, answer: res.data as GateScanResult };
  };

  it('admits with the token the owner’s ticket carries (Ed25519), asks how many, then says where it was used', async () => {
    const ticket = await callProcedure(
      t,
      'query',
      'bookings.byId',
      { bookingId: main.bookingId },
      { cookie: buyer.cookie },
    );
    const token = (ticket.data as { qrToken: string }).qrToken;
    expect(token).toBe(signTicketToken(t.deps.appSecret, main.bookingId));

    const ask = await scan(token);
    expect(ask.answer).toMatchObject({
      outcome: 'ask',
      remaining: 4,
      ticket: { holderName: 'Asha Rao', typeName: 'Gold Circle', allowed: 4, admitted: 0 },
    });
    // Nothing was counted or logged by the question.
    expect(await t.deps.db.select().from(gateScans)).toHaveLength(0);

    t.clock.set(new Date('2026-12-05T13:34:00.000Z'));
    const admitted = await scan(token, { persons: 4, scanId: ask.answer.scanId });
    expect(admitted.answer).toMatchObject({
      outcome: 'admit',
      persons: 4,
      ticket: { admitted: 4, allowed: 4 },
    });

    t.clock.advance(60_000);
    const again = await scan(token, { gate: 'South gate' });
    expect(again.answer).toMatchObject({
      outcome: 'refuse',
      reason: 'used',
      message: 'Already used at North gate, 19:04',
    });
    expect((await bookingRow(main.bookingId))?.numberOfUserCheckedIn).toBe(4);
  });

  it('keeps admitting the first release’s HMAC tokens; refuses altered and invented codes as "Invalid ticket"', async () => {
    const old = signLegacyTicketToken(t.deps.appSecret, main.bookingId);
    expect((await scan(old, { persons: 1 })).answer).toMatchObject({ outcome: 'admit', persons: 1 });
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    const altered = token.slice(0, -3) + (token.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const bad of [altered, `${main.bookingId}.nonsense`, 'hello'])
      expect((await scan(bad, { persons: 1 })).answer).toMatchObject({
        outcome: 'refuse',
        reason: 'invalid',
        message: 'Invalid ticket',
        ticket: null,
      });
  });

  it('refuses another event’s ticket, another slot’s (naming the slot) and a cancelled booking', async () => {
    const elsewhere = await createBookingOn(t, { userId: buyer.userId });
    const other = await scan(signTicketToken(t.deps.appSecret, elsewhere.bookingId), { persons: 1 });
    expect(other.answer).toMatchObject({
      outcome: 'refuse',
      reason: 'other-event',
      message: 'Ticket for another event',
      ticket: null,
    });

    const otherSlot = await createBookingOn(t, {
      userId: buyer.userId,
      eventId: main.eventId,
      slotId: 'slot-sat-12',
      ticketSlot: '2026-12-12T13:30:00.000Z',
    });
    const slotAnswer = await scan(signTicketToken(t.deps.appSecret, otherSlot.bookingId), { persons: 1 });
    expect(slotAnswer.answer).toMatchObject({
      outcome: 'refuse',
      reason: 'other-slot',
      message: 'Ticket for Sat 12 Dec, 7 PM slot',
    });

    const cancelled = await createBookingOn(t, {
      userId: buyer.userId,
      eventId: main.eventId,
      slotId: main.row.slotId,
      status: 'cancelled' as 'confirmed',
    });
    const c = await scan(signTicketToken(t.deps.appSecret, cancelled.bookingId), { persons: 1 });
    expect(c.answer).toMatchObject({ outcome: 'refuse', reason: 'cancelled', message: 'Cancelled booking' });
  });

  it('gate rights are per event: staff of another event, and strangers, cannot scan here; admins and the owner can', async () => {
    const elsewhere = await createBookingOn(t, { userId: buyer.userId });
    const otherStaff = await signedInUser(t, { email: 'other.gate@example.com' });
    await setGateStaff(t.deps.db, 'other.gate@example.com', elsewhere.eventId, true, t.clock.now());
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    // On their own event, our ticket is "for another event"; on ours they have no rights at all.
    const own = await scan(
      token,
      { eventId: elsewhere.eventId, slotId: elsewhere.row.slotId, persons: 1 },
      otherStaff.cookie,
    );
    expect(own.answer).toMatchObject({ outcome: 'refuse', message: 'Ticket for another event' });
    expect((await scan(token, { persons: 1 }, otherStaff.cookie)).status).toBe(404);
    expect((await scan(token, { persons: 1 }, buyer.cookie)).status).toBe(404);
    // A slot of another event is no slot of this one.
    expect((await scan(token, { slotId: elsewhere.row.slotId, persons: 1 })).status).toBe(404);
    expect((await bookingRow(main.bookingId))?.numberOfUserCheckedIn).toBe(0);

    const events = await callProcedure(t, 'query', 'gate.events', undefined, { cookie: staff.cookie });
    expect(
      (events.data as { id: string; slots: { id: string }[] }[]).map((e) => [e.id, e.slots.map((s) => s.id)]),
    ).toEqual([[main.eventId, [main.row.slotId]]]);
    // Revoked by the CLI's service: the gate closes.
    await setGateStaff(t.deps.db, staff.email, main.eventId, false, t.clock.now());
    expect((await scan(token, { persons: 1 })).status).toBe(404);
  });

  it('a resent scan id is never counted twice', async () => {
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    const scanId = sid();
    const first = await scan(token, { persons: 2, scanId });
    const resent = await scan(token, { persons: 2, scanId });
    expect(first.answer).toMatchObject({ outcome: 'admit', persons: 2 });
    expect(resent.answer).toMatchObject({ outcome: 'admit', persons: 2, ticket: { admitted: 2 } });
    expect(await t.deps.db.select().from(gateScans)).toHaveLength(1);
  });

  it('20 gates scanning one 4-person ticket at the same instant admit exactly 4', async () => {
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => scan(token, { persons: 1, gate: `Gate ${i}` })),
    );
    expect(answers.filter((a) => a.answer.outcome === 'admit')).toHaveLength(4);
    expect(answers.filter((a) => a.answer.outcome === 'refuse')).toHaveLength(16);
    expect((await bookingRow(main.bookingId))?.numberOfUserCheckedIn).toBe(4);
    const logged = await t.deps.db.select().from(gateScans).where(eq(gateScans.kind, 'admit'));
    expect(logged.reduce((n, r) => n + r.persons, 0)).toBe(4);
  });

  it('undoes the last admission with a reason, logged; the people can enter again', async () => {
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    const admitted = await scan(token, { persons: 3 });
    const undo = (undoId: string) =>
      callProcedure(
        t,
        'mutation',
        'gate.undo',
        {
          eventId: main.eventId,
          slotId: main.row.slotId,
          gate: 'North gate',
          deviceId: 'device-1',
          undoId,
          scanId: admitted.answer.scanId,
          reason: 'Wrong ticket scanned',
        },
        { cookie: staff.cookie },
      );
    const undoId = sid();
    expect((await undo(undoId)).data).toMatchObject({ undone: 3, ticket: { admitted: 0 } });
    expect((await undo(undoId)).data).toMatchObject({ undone: 3, ticket: { admitted: 0 } });
    expect((await undo(sid())).body.error?.message).toBe('That admission was already undone');
    expect(await runStatements(t.deps.db, (db) => listCheckInsSteps(db, main.bookingId))).toMatchObject([
      { kind: 'admit', persons: 3, gate: 'North gate', staffName: 'Ravi', reason: null },
      { kind: 'undo', persons: 3, reason: 'Wrong ticket scanned' },
    ]);
    expect((await scan(token, { persons: 4 })).answer.outcome).toBe('admit');
  });

  it('a group ticket asks how many even for its last entry: a re-read never lets the partner in (issue 35)', async () => {
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    expect((await scan(token, { persons: 3 })).answer.outcome).toBe('admit');
    const reread = await scan(token);
    expect(reread.answer).toMatchObject({
      outcome: 'ask',
      remaining: 1,
      ticket: { admitted: 3, allowed: 4 },
    });
    expect((await bookingRow(main.bookingId))?.numberOfUserCheckedIn).toBe(3);
  });

  it('after a reload, the look-up’s history undoes a chosen earlier admission, with a reason logged (who, when, why) (issue 35)', async () => {
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    t.clock.set(new Date('2026-12-05T13:34:00.000Z'));
    const first = await scan(token, { persons: 1, gate: 'North gate' });
    t.clock.advance(60_000);
    await scan(token, { persons: 2, gate: 'South gate' });
    // A reloaded device knows no scan id: it asks the ticket's history.
    const history = (cookie = staff.cookie, bookingId = main.bookingId, eventId = main.eventId) =>
      callProcedure(t, 'query', 'gate.history', { eventId, bookingId }, { cookie });
    const before = await history();
    expect(before.data).toMatchObject([
      { scanId: first.answer.scanId, persons: 1, gate: 'North gate', staffName: 'Ravi', undone: null },
      { persons: 2, gate: 'South gate', undone: null },
    ]);
    // A reason is required.
    const undo = (reason: string) =>
      callProcedure(
        t,
        'mutation',
        'gate.undo',
        {
          eventId: main.eventId,
          slotId: main.row.slotId,
          gate: 'South gate',
          deviceId: 'device-2',
          undoId: sid(),
          scanId: first.answer.scanId,
          reason,
        },
        { cookie: staff.cookie },
      );
    const blank = await undo(' ');
    expect(blank.status).toBe(400);
    expect(blank.body.error?.data.fieldErrors?.reason).toBe('Say why (e.g. scanned the wrong ticket)');
    t.clock.advance(60_000);
    expect((await undo('Scanned Asha for her sister')).data).toMatchObject({
      undone: 1,
      ticket: { admitted: 2 },
    });
    expect((await history()).data).toMatchObject([
      {
        scanId: first.answer.scanId,
        undone: { staffName: 'Ravi', at: '2026-12-05T13:36:00.000Z', reason: 'Scanned Asha for her sister' },
      },
      { persons: 2, undone: null },
    ]);
    // Another event's booking, or a stranger: not found / not allowed, like any other gate call.
    const other = await createBookingOn(t, { userId: buyer.userId, userName: 'Elsewhere' });
    expect((await history(staff.cookie, other.bookingId)).status).toBe(404);
    expect((await history(buyer.cookie)).status).toBe(404);
  });

  it('looks a buyer up by booking id, name or mobile, in this slot only', async () => {
    await createBookingOn(t, { userId: buyer.userId, userName: 'Asha Elsewhere' });
    const lookUp = async (query: string) =>
      (
        await callProcedure(
          t,
          'query',
          'gate.lookUp',
          { eventId: main.eventId, slotId: main.row.slotId, query },
          { cookie: staff.cookie },
        )
      ).data as { bookingId: string; phoneEnd: string }[];
    for (const q of ['asha', main.bookingId, main.bookingId.slice(0, 8), '98765 43210'])
      expect(
        (await lookUp(q)).map((r) => r.bookingId),
        q,
      ).toEqual([main.bookingId]);
    expect((await lookUp('asha'))[0]?.phoneEnd).toBe('3210');
    expect(await lookUp('nobody here')).toEqual([]);
    // Letters with a mobile's digits read as a booking id, not as that mobile.
    expect(await lookUp('jb43210')).toEqual([]);
  });

  it('merges offline scans: two devices admitting the same ticket become a double entry (who, where, when); a resent batch changes nothing', async () => {
    // During the show: the scans below happened minutes ago, not in the future.
    t.clock.set(new Date('2026-12-05T13:45:00.000Z'));
    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    const upload = (gate: string, deviceId: string, scans: unknown[], cookie = staff.cookie) =>
      callProcedure(
        t,
        'mutation',
        'gate.upload',
        { eventId: main.eventId, slotId: main.row.slotId, gate, deviceId, scans },
        { cookie },
      );
    const north = [
      { scanId: sid(), token, decision: 'admit', persons: 4, scannedAt: '2026-12-05T13:31:00.000Z' },
    ];
    const south = [
      { scanId: sid(), token, decision: 'admit', persons: 4, scannedAt: '2026-12-05T13:33:00.000Z' },
    ];
    expect(((await upload('North gate', 'd-north', north)).data as MergedScan[])[0]).toMatchObject({
      status: 'new',
      counted: 4,
      excess: 0,
    });
    const second = await signedInUser(t, { email: 'south@example.com', name: 'Meena' });
    await setGateStaff(t.deps.db, 'south@example.com', main.eventId, true, t.clock.now());
    expect(
      ((await upload('South gate', 'd-south', south, second.cookie)).data as MergedScan[])[0],
    ).toMatchObject({ status: 'new', counted: 0, excess: 4 });
    expect(
      ((await upload('South gate', 'd-south', south, second.cookie)).data as MergedScan[])[0],
    ).toMatchObject({ status: 'known' });

    const sync = (
      await callProcedure(
        t,
        'query',
        'gate.sync',
        { eventId: main.eventId, slotId: main.row.slotId },
        { cookie: staff.cookie },
      )
    ).data as GateSync;
    expect(sync.counters).toMatchObject({ expected: 4, admitted: 4 });
    expect(sync.counters.gates).toEqual([
      { gate: 'North gate', admitted: 4, excess: 0 },
      { gate: 'South gate', admitted: 0, excess: 4 },
    ]);
    expect(sync.doubleEntries).toEqual([
      expect.objectContaining({
        bookingId: main.bookingId,
        holderName: 'Asha Rao',
        excess: 4,
        gate: 'South gate',
        staffName: 'Meena',
        scannedAt: '2026-12-05T13:33:00.000Z',
        others: [
          {
            gate: 'North gate',
            staffName: 'Ravi',
            scannedAt: '2026-12-05T13:31:00.000Z',
            persons: 4,
            offline: true,
          },
        ],
      }),
    ]);
    const dashboard = await callProcedure(
      t,
      'query',
      'gate.dashboard',
      { eventId: main.eventId },
      { cookie: staff.cookie },
    );
    expect((dashboard.data as { doubleEntries: unknown[] }).doubleEntries).toHaveLength(1);
  });

  it('the ticket list: whole, then deltas (new tickets, others’ admissions) that add up to the whole', async () => {
    const syncAt = async (ticketCursor: number, feedCursor: number) =>
      (
        await callProcedure(
          t,
          'query',
          'gate.sync',
          { eventId: main.eventId, slotId: main.row.slotId, ticketCursor, feedCursor },
          { cookie: staff.cookie },
        )
      ).data as GateSync;
    const full = await syncAt(0, 0);
    // The mobile travels as its last four digits only (the device's offline look-up).
    expect(full.tickets).toEqual([[main.bookingId, 'Asha Rao', 'Gold Circle', 4, 0, 0, '3210']]);
    expect(full.publicKey).toMatch(/^[\w-]{43}$/);

    const token = signTicketToken(t.deps.appSecret, main.bookingId);
    await scan(token, { persons: 1 });
    const later = await createBookingOn(t, {
      userId: buyer.userId,
      userName: 'Kabir',
      eventId: main.eventId,
      slotId: main.row.slotId,
    });
    await scan(signTicketToken(t.deps.appSecret, later.bookingId), { persons: 2 });

    const delta = await syncAt(full.ticketCursor, full.feedCursor);
    expect(delta.tickets).toEqual([[later.bookingId, 'Kabir', 'Gold Circle', 4, 2, 0, '3210']]);
    expect(delta.feed.map((f) => [f[2], f[3], f[4]])).toEqual([
      [main.bookingId, 1, 'North gate'],
      [later.bookingId, 2, 'North gate'],
    ]);
    // A device applies the feed to what it had, then the new tickets (their counts include the feed).
    const device = new Map(full.tickets.map((r) => [r[0], r[4]]));
    for (const f of delta.feed) if (device.has(f[2])) device.set(f[2], (device.get(f[2]) ?? 0) + f[3]);
    for (const r of delta.tickets) device.set(r[0], r[4]);
    const whole = await syncAt(0, 0);
    expect(Object.fromEntries(device)).toEqual(Object.fromEntries(whole.tickets.map((r) => [r[0], r[4]])));
    expect(whole.feedCursor).toBe(delta.feedCursor);
    expect((await syncAt(delta.ticketCursor, delta.feedCursor)).feed).toEqual([]);

    // A cancellation after the device has the ticket reaches it in the next delta, not only in a new
    // full download.
    // (The booking row as cancelBookingIn leaves it; the helper's booking has no payment to refund.)
    await t.deps.db
      .update(bookings)
      .set({ status: 'cancelled', cancelledAt: '2026-12-05T13:40:00.000Z', cancelReason: 'organiser' })
      .where(eq(bookings.id, later.bookingId));
    const afterCancel = await syncAt(delta.ticketCursor, delta.feedCursor);
    expect(afterCancel.tickets).toEqual([[later.bookingId, 'Kabir', 'Gold Circle', 4, 2, 1, '3210']]);
    expect(afterCancel.ticketCursor).toBe(delta.ticketCursor);
  });
  it('the sync carries the event’s other slots as booking ids by slot start (not other events’), whole then by delta', async () => {
    const syncAt = async (ticketCursor: number) =>
      (
        await callProcedure(
          t,
          'query',
          'gate.sync',
          { eventId: main.eventId, slotId: main.row.slotId, ticketCursor, feedCursor: 0 },
          { cookie: staff.cookie },
        )
      ).data as GateSync;
    const otherSlot = (ticketSlot: string) =>
      createBookingOn(t, {
        userId: buyer.userId,
        eventId: main.eventId,
        slotId: `slot-${ticketSlot}`,
        ticketSlot,
      });
    const sat = await otherSlot('2026-12-12T13:30:00.000Z');
    await createBookingOn(t, { userId: buyer.userId }); // another event's
    const full = await syncAt(0);
    expect(full.elsewhere).toEqual([['2026-12-12T13:30:00.000Z', [sat.bookingId]]]);
    expect(full.tickets.map((r) => r[0])).toEqual([main.bookingId]);

    const sun = await otherSlot('2026-12-13T04:45:00.000Z');
    const delta = await syncAt(full.ticketCursor);
    expect(delta.elsewhere).toEqual([['2026-12-13T04:45:00.000Z', [sun.bookingId]]]);
    expect(delta.tickets).toEqual([]);
    expect((await syncAt(delta.ticketCursor)).elsewhere).toEqual([]);
  });

  describe('offline uploads are bounded and attributed (issue 35)', () => {
    const upload = (scans: unknown[], deviceId = 'd-east') =>
      callProcedure(
        t,
        'mutation',
        'gate.upload',
        { eventId: main.eventId, slotId: main.row.slotId, gate: 'East gate', deviceId, scans },
        { cookie: staff.cookie },
      );
    const syncNow = async () =>
      (
        await callProcedure(
          t,
          'query',
          'gate.sync',
          { eventId: main.eventId, slotId: main.row.slotId },
          { cookie: staff.cookie },
        )
      ).data as GateSync;
    const dashboard = async () =>
      (await callProcedure(t, 'query', 'gate.dashboard', { eventId: main.eventId }, { cookie: staff.cookie }))
        .data as { doubleEntries: unknown[]; doubleEntryTotals: { entries: number; excess: number } };
    const rowOf = async (scanId: string) =>
      (await t.deps.db.select().from(gateScans).where(eq(gateScans.scanId, scanId)))[0];
    beforeEach(() => t.clock.set(new Date('2026-12-05T13:45:00.000Z')));

    it('a scan time of 2001, or ahead of the server’s clock, is logged at the upload’s time with a note', async () => {
      const token = signTicketToken(t.deps.appSecret, main.bookingId);
      const old = {
        scanId: sid(),
        token,
        decision: 'admit',
        persons: 1,
        scannedAt: '2001-01-01T00:00:00.000Z',
      };
      const ahead = {
        scanId: sid(),
        token,
        decision: 'admit',
        persons: 1,
        scannedAt: '2026-12-05T15:00:00.000Z',
      };
      const fine = {
        scanId: sid(),
        token,
        decision: 'admit',
        persons: 1,
        scannedAt: '2026-12-05T13:40:00.000Z',
      };
      expect((await upload([old, ahead, fine])).status).toBe(200);
      const now = t.clock.now().toISOString();
      expect(await rowOf(old.scanId)).toMatchObject({
        scannedAt: now,
        reason: 'Device clock said 2001-01-01T00:00:00.000Z: logged at upload time',
        staffUserId: staff.userId,
      });
      expect(await rowOf(ahead.scanId)).toMatchObject({ scannedAt: now });
      expect(await rowOf(fine.scanId)).toMatchObject({ scannedAt: fine.scannedAt, reason: null });
      const booking = await bookingRow(main.bookingId);
      expect(booking?.numberOfUserCheckedIn).toBe(3);
      expect(booking?.lastCheckInAt).toBe(now);
    });

    it('an upload cannot claim more than 20 scans of one ticket, nor more people on a ticket than it admits, and every excess person is listed', async () => {
      const elsewhere = await createBookingOn(t, { userId: buyer.userId, userName: 'Not this event' });
      const token = signTicketToken(t.deps.appSecret, elsewhere.bookingId);
      const forged = (n: number) =>
        Array.from({ length: n }, (_, i) => ({
          scanId: sid(),
          token,
          decision: 'admit',
          persons: 100,
          scannedAt: new Date(Date.parse('2026-12-05T13:30:00.000Z') + i * 1000).toISOString(),
        }));
      const tooMany = await upload(forged(21));
      expect(tooMany.status).toBe(400);
      expect(JSON.stringify(tooMany.body)).toContain('Send at most 20 scans of one ticket at once');

      // 20 × 100 people on another event's 4-person ticket: at most its 4 are believed, and shown.
      expect((await upload(forged(20))).status).toBe(200);
      const sync = await syncNow();
      expect(sync.counters.gates).toEqual([{ gate: 'East gate', admitted: 0, excess: 4 }]);
      expect(sync.doubleEntries).toEqual([
        expect.objectContaining({
          bookingId: null,
          // No booking of this event to name: the row's reason, with what was not believed.
          holderName: 'Ticket for another event; 96 more than the ticket admits in one upload: not counted',
          excess: 4,
          gate: 'East gate',
          deviceId: 'd-east',
          staffName: 'Ravi',
        }),
      ]);
      expect((await dashboard()).doubleEntryTotals).toEqual({ entries: 1, excess: 4 });
    });

    it('the worst and the newest double entries come first: 200 made-up ones hide no real one', async () => {
      const scanRow = (excess: number, i: number) => ({
        scanId: `made-up-${excess}-${i}`,
        eventId: main.eventId,
        slotId: main.row.slotId as string,
        bookingId: main.bookingId,
        kind: 'admit' as const,
        persons: 0,
        excess,
        gate: 'West gate',
        deviceId: 'd-west',
        staffUserId: staff.userId,
        scannedAt: '2026-12-05T13:31:00.000Z',
        receivedAt: '2026-12-05T13:31:00.000Z',
        offline: true,
      });
      // An old large double entry, then 200 small made-up ones after it.
      await t.deps.db.insert(gateScans).values(scanRow(3, 0));
      await t.deps.db.insert(gateScans).values(Array.from({ length: 200 }, (_, i) => scanRow(1, i + 1)));
      // Then a real one: the ticket is full, another device let 2 more in.
      const token = signTicketToken(t.deps.appSecret, main.bookingId);
      expect((await scan(token, { persons: 4 })).answer.outcome).toBe('admit');
      const real = {
        scanId: sid(),
        token,
        decision: 'admit',
        persons: 2,
        scannedAt: '2026-12-05T13:42:00.000Z',
      };
      expect((await upload([real])).status).toBe(200);

      const listed = (await syncNow()).doubleEntries;
      expect(listed.length).toBeLessThanOrEqual(200);
      // The most people first (the old one), then the real one (newest of the rest).
      expect(listed.slice(0, 2).map((d) => [d.scanId, d.excess])).toEqual([
        ['made-up-3-0', 3],
        [real.scanId, 2],
      ]);
      // Among equals, the newest first.
      expect(listed[2]?.scanId).toBe('made-up-1-200');
      expect((await dashboard()).doubleEntryTotals).toEqual({ entries: 202, excess: 205 });
    });
  });
});
