import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfflineScan } from '../../shared/gate-schemas.ts';
import { type Db, databaseFile } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb, pgWriteTransaction } from '../../src-server/db/engine/postgres.ts';
import { changes, row, runSync, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { moveToPostgres } from '../../src-server/db/move-to-postgres.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { attendeeTickets } from '../../src-server/db/schema/attendee-tickets.ts';
import * as pgSchema from '../../src-server/db/schema-pg/index.ts';
import { type WriteTx, writeTransaction } from '../../src-server/db/write-transaction.ts';
import type { AppDeps } from '../../src-server/deps.ts';
import { ticketRefOf } from '../../src-server/services/attendee-tickets/attendee-gate.ts';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import {
  boundedScans,
  type MergedScan,
  mergeOfflineScansSteps,
} from '../../src-server/services/gate/merge-offline-scans.ts';
import { type RecordScanInput, recordScanSteps } from '../../src-server/services/gate/record-scan.ts';
import { type GateSync, syncSlot } from '../../src-server/services/gate/sync-slot.ts';
import { undoAdmissionSteps } from '../../src-server/services/gate/undo-admission.ts';
import { refundPartSteps } from '../../src-server/services/partial-refunds/refund-part-in.ts';
import { signAttendeeTicketToken, signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { insertBookingWithEvent } from '../helpers/bookings.ts';
import { TEST_CLOCK_START } from '../helpers/fixture-dates.ts';
import { scratchDatabase } from '../helpers/scratch-database.ts';
import { scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// Issue 38, ADR 0045: admission at the gate (a scan, its undo, the offline merge), written once, on both
// engines: a ticket admits at most its persons, a second scan is refused as used, an undo lets it in
// again, each attendee's own QR (ADR 0046) admits once, offline scans merge with the earliest counted and
// the rest reported as double entries; and 20 gates on 20 connections scanning one ticket at once admit
// exactly one.

const SECRET = 'engine-gate-test-secret-0123456789abcdef012';
const NOW = new Date('2026-12-05T14:00:00.000Z');
const CALLER = { staffUserId: 'staff' };

interface Fixture {
  eventId: string;
  slotId: string;
  slotStart: string;
  /** Bookings by what each test does with them: `persons` people on the booking's QR. */
  single: string;
  race: string;
  offline: string;
  /** Two attendees' own QRs (1 person each) and nothing left on the booking's QR. */
  attendees: { bookingId: string; ticketTypeId: string };
  /** Two attendees' own QRs and 1 person left on the booking's QR. */
  mixed: { bookingId: string; ticketTypeId: string };
  /** Bookings of 2 tickets (1 person each), each scanned for both people while 1 ticket is refunded. */
  refundRaces: { bookingId: string; ticketTypeId: string }[];
}

interface Engine {
  fixture: Fixture;
  db: Db;
  /** PostgreSQL's URL, for a second connection that holds a transaction open. */
  url?: string;
  run: <T>(transition: (tx: WriteTx) => Steps<T>) => Promise<T>;
  close: () => Promise<void>;
}

/** The gate's fixture, on a SQLite file: one event's slot and the bookings the tests scan. */
function writeFixture(db: Db): Fixture {
  db.insert(users)
    .values({
      id: 'staff',
      email: 'staff@example.com',
      name: 'Ravi',
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
    })
    .run();
  const first = insertBookingWithEvent(db, TEST_CLOCK_START, {
    userId: 'staff',
    quantity: 1,
    personAllowedPerTicket: 1,
  });
  const where = { eventId: first.eventId, slotId: first.row.slotId as string };
  const booking = (quantity: number) =>
    insertBookingWithEvent(db, TEST_CLOCK_START, {
      userId: 'staff',
      quantity,
      personAllowedPerTicket: 1,
      ...where,
    });
  const withAttendees = (quantity: number) => {
    const created = booking(quantity);
    const ticketTypeId = created.row.ticketType.id;
    for (const position of [1, 2])
      db.insert(attendeeTickets)
        .values({ bookingId: created.bookingId, slotId: where.slotId, ticketTypeId, position, allowed: 1 })
        .run();
    return { bookingId: created.bookingId, ticketTypeId };
  };
  return {
    ...where,
    slotStart: first.row.ticketSlot,
    single: first.bookingId,
    race: booking(1).bookingId,
    offline: booking(1).bookingId,
    attendees: withAttendees(2),
    mixed: withAttendees(3),
    refundRaces: Array.from({ length: 8 }, () => {
      const created = booking(2);
      return { bookingId: created.bookingId, ticketTypeId: created.row.ticketType.id };
    }),
  };
}

const serverUrl = testPostgresUrl('engine-gate-admission.test.ts');
const engines: [string, () => Promise<Engine>][] = [
  [
    'SQLite',
    async () => {
      const scratch = scratchDatabase('jalsa-engine-gate-');
      const db = scratch.database.db;
      return {
        fixture: writeFixture(db),
        db,
        run: (transition) => writeTransaction(db, (tx) => runSync(transition(tx))),
        close: async () => scratch.remove(),
      };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      // The same fixture, written on SQLite and moved as an installation moves (npm run db:move-to-postgres).
      const scratch = scratchDatabase('jalsa-engine-gate-');
      const fixture = writeFixture(scratch.database.db);
      const target = await scratchPostgres(serverUrl);
      await moveToPostgres({ sqliteFile: databaseFile(scratch.dataDir), databaseUrl: target.url });
      scratch.remove();
      // A connection for each of the 20 racing gates.
      const db: PgDb = await openPostgres(target.url, { poolSize: 20 });
      return {
        fixture,
        db: db as unknown as Db,
        url: target.url,
        run: (transition) => pgWriteTransaction(db, transition),
        close: async () => {
          await db.$client.end();
          await target.drop({ waitForClosing: true });
        },
      };
    },
  ]);
}

describe.each(engines)('admission at the gate, written once, on %s', (_name, open) => {
  let engine: Engine;
  let f: Fixture;
  beforeAll(async () => {
    engine = await open();
    f = engine.fixture;
  });
  afterAll(() => engine?.close());

  const where = (gate = 'North gate') => ({ slotId: f.slotId, gate, deviceId: `dev-${gate}` });
  const scan = (input: Omit<RecordScanInput, 'scanId' | 'slotId' | 'gate' | 'deviceId'>, gate?: string) => {
    const full = { ...where(gate), scanId: randomUUID(), ...input };
    return engine.run((tx) =>
      recordScanSteps(tx, ticketRefOf(SECRET, full), { ...CALLER, eventId: f.eventId }, full, NOW),
    );
  };
  const qr = (bookingId: string) => signTicketToken(SECRET, bookingId);
  const attendeeQr = (t: { bookingId: string; ticketTypeId: string }, position: number) =>
    signAttendeeTicketToken(SECRET, t.bookingId, 0, { ticketTypeId: t.ticketTypeId, position });
  const admitted = (bookingId: string) =>
    engine.run(function* (tx) {
      const { bookings } = tablesOf(tx);
      const found = yield* row(tx.select().from(bookings).where(eq(bookings.id, bookingId)));
      return found?.numberOfUserCheckedIn;
    });

  it('admits a ticket once; a second scan is refused as used; an undo lets it in again', async () => {
    const first = await scan({ token: qr(f.single) });
    expect(first).toMatchObject({ outcome: 'admit', persons: 1, ticket: { admitted: 1, allowed: 1 } });
    expect(await scan({ token: qr(f.single) }, 'South gate')).toMatchObject({
      outcome: 'refuse',
      reason: 'used',
      message: 'Already used at North gate, 19:30',
    });

    const undo = {
      ...where(),
      undoId: randomUUID(),
      scanId: first.scanId,
      reason: 'scanned the wrong ticket',
    };
    const caller = { ...CALLER, eventId: f.eventId };
    expect(await engine.run((tx) => undoAdmissionSteps(tx, caller, undo, NOW))).toMatchObject({
      undone: 1,
      ticket: { admitted: 0 },
    });
    // A resent undo answers as before; undoing it again under another id is refused.
    expect(await engine.run((tx) => undoAdmissionSteps(tx, caller, undo, NOW))).toMatchObject({ undone: 1 });
    await expect(
      engine.run((tx) => undoAdmissionSteps(tx, caller, { ...undo, undoId: randomUUID() }, NOW)),
    ).rejects.toThrow('That admission was already undone');

    expect(await scan({ token: qr(f.single) }, 'South gate')).toMatchObject({ outcome: 'admit', persons: 1 });
    expect(await admitted(f.single)).toBe(1);
  });

  it("admits each attendee's own QR once; the booking's QR has nobody left to admit", async () => {
    expect(await scan({ token: qr(f.attendees.bookingId) })).toMatchObject({
      outcome: 'refuse',
      reason: 'per-attendee',
    });
    expect(await scan({ token: attendeeQr(f.attendees, 1) })).toMatchObject({
      outcome: 'admit',
      ticket: { ticketId: `${f.attendees.bookingId}+${f.attendees.ticketTypeId}+1`, admitted: 1 },
    });
    expect(await scan({ token: attendeeQr(f.attendees, 1) })).toMatchObject({
      outcome: 'refuse',
      reason: 'used',
    });
    expect(await scan({ token: attendeeQr(f.attendees, 2) })).toMatchObject({ outcome: 'admit' });
    expect(await admitted(f.attendees.bookingId)).toBe(2);
  });

  it('merges offline scans: the earliest admission is counted, a duplicate is reported as a double entry', async () => {
    const offline = (deviceTime: string): OfflineScan => ({
      scanId: randomUUID(),
      token: qr(f.offline),
      decision: 'admit',
      persons: 1,
      scannedAt: deviceTime,
    });
    const caller = { ...CALLER, eventId: f.eventId };
    const upload = (gate: string, scans: OfflineScan[]): Promise<MergedScan[]> => {
      const bounded = boundedScans(scans, f.slotStart, NOW);
      const codes = new Map(bounded.map((s) => [s.scanId, ticketRefOf(SECRET, s)]));
      return engine.run((tx) => mergeOfflineScansSteps(tx, caller, where(gate), bounded, codes, NOW));
    };
    const late = offline('2026-12-05T13:40:00.000Z');
    const early = offline('2026-12-05T13:34:00.000Z');
    expect(await upload('North gate', [late])).toEqual([
      { scanId: late.scanId, status: 'new', counted: 1, excess: 0 },
    ]);
    // Another device's earlier scan, uploaded later, finds the ticket used: the people are in, as excess.
    expect(await upload('South gate', [early, late])).toEqual([
      { scanId: early.scanId, status: 'new', counted: 0, excess: 1 },
      { scanId: late.scanId, status: 'known', counted: 0, excess: 0 },
    ]);
    expect(await admitted(f.offline)).toBe(1);
    // Online, the ticket is used.
    expect(await scan({ token: qr(f.offline) })).toMatchObject({ outcome: 'refuse', reason: 'used' });
  });

  it('20 gates scanning one ticket at the same instant admit it exactly once', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => scan({ token: qr(f.race) }, `Gate ${i}`)),
    );
    expect(outcomes(results)).toEqual({ admit: 1, used: 19 });
    expect(await admitted(f.race)).toBe(1);
  });

  it("20 gates scanning the booking's own QR beside its attendees' admit only the person it has left", async () => {
    // The booking counts 3 people; its QR admits the 1 its attendees' QRs do not: the count to check is
    // the QR's own, not the booking's, so the gates must take turns on the booking.
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => scan({ token: qr(f.mixed.bookingId) }, `Gate ${i}`)),
    );
    expect(outcomes(results)).toEqual({ admit: 1, used: 19 });
    expect(await scan({ token: attendeeQr(f.mixed, 1) })).toMatchObject({ outcome: 'admit' });
    expect(await scan({ token: attendeeQr(f.mixed, 2) })).toMatchObject({ outcome: 'admit' });
    expect(await admitted(f.mixed.bookingId)).toBe(3);
  });

  it('a part refund cancelling a ticket while the gate admits both people: never a seat both used and resold', async () => {
    // Each booking: the gate scans its QR for 2 people while the organiser cancels 1 of its 2 tickets
    // from another connection. Either the refund comes first (1 ticket left: the scan of 2 is refused,
    // its seat back on sale) or the scan does (both in: the cancelled ticket was used, its seat stays
    // off sale). Both take the booking's key; without it the refund read 0 admitted and resold a seat
    // someone had walked in on.
    await Promise.all(
      f.refundRaces.flatMap((race) => [
        scan({ token: qr(race.bookingId), persons: 2 }),
        engine.run((tx) =>
          refundPartSteps(
            tx,
            { env: { SUPPORT_EMAIL: 'help@example.com' } as AppDeps['env'] },
            race.bookingId,
            {
              kind: 'organiser',
              amountPaise: 0,
              reason: 'One friend cannot come',
              cancelTickets: [{ ticketTypeId: race.ticketTypeId, quantity: 1 }],
              actorUserId: 'staff',
            },
            NOW,
          ),
        ),
      ]),
    );
    for (const race of f.refundRaces) {
      const state = await engine.run(function* (tx) {
        const { bookings, refundParts, ticketTypes } = tablesOf(tx);
        const booking = yield* row(tx.select().from(bookings).where(eq(bookings.id, race.bookingId)));
        const part = yield* row(
          tx.select().from(refundParts).where(eq(refundParts.bookingId, race.bookingId)),
        );
        const type = yield* row(tx.select().from(ticketTypes).where(eq(ticketTypes.id, race.ticketTypeId)));
        return { admitted: booking!.numberOfUserCheckedIn, part: part!, available: type!.availableTickets };
      });
      const returned = state.part.cancelledTickets.reduce((sum, line) => sum + line.seatsReturned, 0);
      // 2 people in and no seat back, or at most 1 in and the cancelled seat back on sale (23 + 1).
      expect([state.admitted, returned, state.available]).toSatisfy(
        ([admitted, back, available]: number[]) =>
          (admitted === 2 && back === 0 && available === 23) ||
          (admitted! <= 1 && back === 1 && available === 24),
      );
    }
  });

  const sync = (cursors: { ticketCursor: number; feedCursor: number }) =>
    syncSlot(engine.db, SECRET, f.eventId, { slotId: f.slotId, ...cursors });
  /** A booking more on the fixture's slot, as the confirmation adds one (a copy of `single`, unadmitted). */
  const addBooking = () =>
    engine.run(function* (tx) {
      const { bookings } = tablesOf(tx);
      const source = yield* row(tx.select().from(bookings).where(eq(bookings.id, f.single)));
      const id = `bk-${randomUUID()}`;
      yield* changes(
        tx.insert(bookings).values({
          ...(source as typeof bookings.$inferSelect),
          id,
          paymentId: `pay-${id}`,
          orderId: `order-${id}`,
          numberOfUserCheckedIn: 0,
          gateListPosition: null,
        }),
      );
      return id;
    });
  const feedIds = (s: GateSync) => s.feed.map((entry) => entry[1]);

  it("a device's next sync sends only what is new since its cursors: bookings in the list, scans in the feed", async () => {
    const full = await sync({ ticketCursor: 0, feedCursor: 0 });
    expect(full.tickets.map((t) => t[0])).toContain(f.single);
    // A cursor to page from: on PostgreSQL it was 0 (no rowid), and every sync sent the whole list.
    expect(full.ticketCursor).toBeGreaterThan(0);
    const added = await addBooking();
    const delta = await sync(full);
    expect(delta.tickets.map((t) => t[0])).toEqual([added]);
    expect(delta.ticketCursor).toBeGreaterThan(full.ticketCursor);
    const admit = await scan({ token: qr(added) });
    expect(admit).toMatchObject({ outcome: 'admit' });
    const next = await sync(delta);
    expect(feedIds(next)).toEqual([admit.scanId]);
    expect(next.tickets).toEqual([]);
    const idle = await sync(next);
    expect([idle.feed, idle.tickets, idle.ticketCursor, idle.feedCursor]).toEqual([
      [],
      [],
      next.ticketCursor,
      next.feedCursor,
    ]);
  });

  // PostgreSQL only: SQLite's single writer commits in the order it numbers.
  it.runIf(_name === 'PostgreSQL')(
    'a scan numbered first but committed last still reaches a device that synced between the two',
    async () => {
      const holder = new pg.Client({ connectionString: engine.url });
      await holder.connect();
      try {
        const added = await addBooking();
        const before = await sync({ ticketCursor: 0, feedCursor: 0 });
        // The admission inserts its gate_scans row, then waits on the booking history held here: it
        // has drawn its number and not committed.
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE booking_history IN SHARE MODE');
        const first = scan({ token: qr(added) });
        await waitForLockWait(holder, 'booking_history');
        // A refusal (a code naming no booking) writes no history: it commits with the later number.
        const second = await scan({ token: 'not-a-ticket' });
        expect(second).toMatchObject({ outcome: 'refuse', reason: 'invalid' });
        const between = await sync(before);
        expect(feedIds(between)).toEqual([]);
        await holder.query('COMMIT');
        const admit = await first;
        expect(admit).toMatchObject({ outcome: 'admit' });
        const after = await sync(between);
        expect(feedIds(after)).toEqual([admit.scanId]);

        // The same for the ticket list: a booking inserted first and committed last is still sent.
        const { bookings } = pgSchema;
        const source = (await drizzle(holder).select().from(bookings).where(eq(bookings.id, f.single)))[0];
        const late = `bk-${randomUUID()}`;
        await holder.query('BEGIN');
        await drizzle(holder)
          .insert(bookings)
          .values({
            ...(source as typeof bookings.$inferSelect),
            id: late,
            paymentId: `pay-${late}`,
            orderId: `order-${late}`,
            numberOfUserCheckedIn: 0,
            gateListPosition: null,
          });
        const early = await addBooking();
        const listed = await sync(after);
        expect(listed.tickets.map((t) => t[0])).toEqual([early]);
        await holder.query('COMMIT');
        expect((await sync(listed)).tickets.map((t) => t[0])).toEqual([late]);
      } finally {
        await holder.end();
      }
    },
  );
});

/** Until a statement of another connection waits for `table`'s lock, which `holder` holds. */
async function waitForLockWait(holder: pg.Client, table: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await holder.query(
      'SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted',
      [table],
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`nothing waited for ${table}`);
}

function outcomes(results: GateScanResult[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of results) {
    const key = r.outcome === 'refuse' ? r.reason : r.outcome;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
