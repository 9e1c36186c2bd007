import { and, asc, eq, inArray, like, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb, pgWriteTransaction } from '../../src-server/db/engine/postgres.ts';
import { changes, rows, runAsync, runSync, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { type WriteTx, writeTransaction } from '../../src-server/db/write-transaction.ts';
import { cancelBookingSteps } from '../../src-server/services/bookings/cancel-booking-in.ts';
import { HOLD_GRACE_MS } from '../../src-server/services/inventory/holds.ts';
import { releaseAndPassOnSteps } from '../../src-server/services/waitlist/pass-on.ts';
import { offerWaitingSteps, tendWaitlists } from '../../src-server/services/waitlist/waitlist-job.ts';
import { createTicketedEvent, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

// ADR 0045: the waiting list's offer (waitlist/offer-returned-seats.ts), written once and proved by the
// same cases on both engines, from one installation made by the app on SQLite and, for PostgreSQL, moved
// there. Seats that come back go to the first person waiting for them (a hold in their name, a mail),
// never to open sale; on PostgreSQL returns racing on two pools, as two app servers would, offer each
// seat once and in the list's order.

interface Engine {
  /** The app's database as the composition root hands it to a job (the first pool on PostgreSQL). */
  db: Db;
  /** One write transaction, on the `pool`-th server's pool (two on PostgreSQL, one database on SQLite). */
  write: <T>(transition: (tx: WriteTx) => Steps<T>, pool?: number) => Promise<T>;
  read: <T>(steps: (db: WriteTx) => Steps<T>) => Promise<T>;
  close: () => Promise<void>;
}

/** A sold-out type, its bookings and its waiting list (entry ids in the order of joining). */
interface SoldOut {
  typeId: string;
  bookingIds: string[];
  entryIds: string[];
}

interface World {
  t: TestApp;
  /** 2 seats in one booking of 2; waiting: 2, 2, then 1. */
  solo: SoldOut;
  /** 10 seats in 10 bookings of 1; 12 waiting for 1 each. */
  race: SoldOut;
  /** 5 seats in 5 bookings of 1; 7 waiting for 1 each. */
  net: SoldOut;
}

const serverUrl = testPostgresUrl('engine-waitlist-offer.test.ts');
let world: World;
let target: ScratchPostgres | undefined;

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_waitlist_offer');
  }
}, 120_000);

afterAll(async () => {
  await target?.drop({ waitForClosing: true });
});

const engines: [string, () => Promise<Engine>][] = [
  [
    'SQLite',
    async () => {
      const { db } = world.t.deps;
      return {
        db,
        write: (transition) => writeTransaction(db, (tx) => runSync(transition(tx))),
        read: async (steps) => runSync(steps(db as unknown as WriteTx)),
        close: async () => {},
      };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const pools: PgDb[] = [
        await openPostgres(target!.url, { poolSize: 6 }),
        await openPostgres(target!.url, { poolSize: 6 }),
      ];
      const on = (pool = 0) => pools[pool % pools.length]!;
      return {
        db: on(0) as unknown as Db,
        write: (transition, pool) => pgWriteTransaction(on(pool), transition),
        read: (steps) => runAsync(steps(on(0) as unknown as WriteTx), on(0)),
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

describe.each(engines)('the waiting-list offer, written once, on %s', (_name, open) => {
  let engine: Engine;
  const now = () => world.t.clock.now();
  const cancel = (bookingId: string, pool = 0) =>
    engine.write((tx) => cancelBookingSteps(tx, world.t.deps, bookingId, 'organiser', now()), pool);

  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it('a cancelled booking: its seats are offered to the first in line (a hold in their name, a mail), not put on sale', async () => {
    const { solo } = world;
    expect(await cancel(solo.bookingIds[0]!)).not.toBeNull();
    const [first, second, third] = await engine.read((db) => entriesOf(db, solo.entryIds));
    expect(first).toMatchObject({ status: 'offered', quantity: 2 });
    expect(second).toMatchObject({ status: 'waiting' });
    expect(third).toMatchObject({ status: 'waiting' });
    const [hold] = await engine.read((db) => offerHoldsOf(db, [first!.offerHoldId!]));
    expect(hold).toMatchObject({
      userId: first!.userId,
      status: 'active',
      ticketTypeId: solo.typeId,
      quantity: 2,
    });
    expect(hold!.sessionExpiresAt).toBe(first!.offerExpiresAt);
    expect(await engine.read((db) => offerMailKeysOf(db, solo.entryIds))).toEqual([
      `waitlist-offer:${first!.id}`,
    ]);
    const [count] = await engine.read((db) => inventoryOf(db, [solo.typeId]));
    expect(count).toMatchObject({ total: 2, available: 0, held: 2, sold: 0 });
    await expectInvariant(engine);
  });

  it('10 racing cancellations of different bookings: each seat is offered once, to the first 10 in line, in order', async () => {
    const { race } = world;
    const results = await Promise.all(race.bookingIds.map((bookingId, i) => cancel(bookingId, i)));
    expect(results.every((r) => r !== null)).toBe(true);
    const entries = await engine.read((db) => entriesOf(db, race.entryIds));
    expect(entries.map((e) => e.status)).toEqual([...Array(10).fill('offered'), 'waiting', 'waiting']);
    const holdIds = entries.slice(0, 10).map((e) => e.offerHoldId!);
    expect(new Set(holdIds).size).toBe(10);
    const held = await engine.read((db) => offerHoldsOf(db, holdIds));
    expect(held).toHaveLength(10);
    for (const [i, hold] of held.entries()) {
      expect(hold).toMatchObject({ userId: entries[i]!.userId, status: 'active', quantity: 1 });
    }
    // No hold beyond the offers': nobody got a seat twice, none went on sale.
    expect(await engine.read((db) => activeHoldsOfType(db, race.typeId))).toBe(10);
    expect(await engine.read((db) => offerMailKeysOf(db, race.entryIds))).toEqual(
      race.entryIds
        .slice(0, 10)
        .map((id) => `waitlist-offer:${id}`)
        .sort(),
    );
    const [count] = await engine.read((db) => inventoryOf(db, [race.typeId]));
    expect(count).toMatchObject({ total: 10, available: 0, held: 10, sold: 0 });
    await expectInvariant(engine);
  });

  it('an expired offer passes to the next in line; with nobody left who fits, the rest goes back on sale', async () => {
    const { solo } = world;
    const [first] = await engine.read((db) => entriesOf(db, solo.entryIds));
    const lapse = async (entry: { offerHoldId: string | null; offerExpiresAt: string | null }) => {
      const at = new Date(Date.parse(entry.offerExpiresAt!) + HOLD_GRACE_MS);
      return engine.write((tx) => releaseAndPassOnSteps(tx, world.t.deps, entry.offerHoldId!, 'expired', at));
    };
    expect(await lapse(first!)).toBe(true);
    // Twice (the sweeper on two servers): the offer passes on once.
    expect(await lapse(first!)).toBe(false);
    const [, second, third] = await engine.read((db) => entriesOf(db, solo.entryIds));
    expect((await engine.read((db) => entriesOf(db, solo.entryIds))).map((e) => e.status)).toEqual([
      'lapsed',
      'offered',
      'waiting',
    ]);
    const [hold] = await engine.read((db) => offerHoldsOf(db, [second!.offerHoldId!]));
    expect(hold).toMatchObject({ userId: second!.userId, status: 'active', quantity: 2 });
    expect(await engine.read((db) => inventoryOf(db, [solo.typeId]))).toMatchObject([
      { available: 0, held: 2 },
    ]);

    // The second lets it lapse too: the third wants 1 of the 2, and the other goes on open sale.
    await lapse(second!);
    const after = await engine.read((db) => entriesOf(db, solo.entryIds));
    expect(after.map((e) => e.status)).toEqual(['lapsed', 'lapsed', 'offered']);
    expect(after[2]!.id).toBe(third!.id);
    expect(await engine.read((db) => offerMailKeysOf(db, solo.entryIds))).toEqual(
      solo.entryIds.map((id) => `waitlist-offer:${id}`).sort(),
    );
    expect(await engine.read((db) => inventoryOf(db, [solo.typeId]))).toMatchObject([
      { total: 2, available: 1, held: 1, sold: 0 },
    ]);
    await expectInvariant(engine);
  });

  it("the safety net's offers racing cancellations of the same list: each seat once, in order", async () => {
    const { net } = world;
    // Two seats come back without being passed on (what the safety net is for).
    await engine.write((tx) => addSeatsUnoffered(tx, net.typeId, 2));
    const work = [
      ...net.bookingIds.slice(0, 3).map((bookingId, i) => () => cancel(bookingId, i)),
      ...[0, 1, 2, 3].map(
        (i) => () => engine.write((tx) => offerWaitingSteps(tx, world.t.deps, net.typeId, now()), i + 1),
      ),
    ];
    await Promise.all(work.map((run) => run()));
    const entries = await engine.read((db) => entriesOf(db, net.entryIds));
    expect(entries.map((e) => e.status)).toEqual([...Array(5).fill('offered'), 'waiting', 'waiting']);
    const holdIds = entries.slice(0, 5).map((e) => e.offerHoldId!);
    expect(new Set(holdIds).size).toBe(5);
    expect(await engine.read((db) => activeHoldsOfType(db, net.typeId))).toBe(5);
    expect(await engine.read((db) => inventoryOf(db, [net.typeId]))).toMatchObject([
      { total: 7, available: 0, held: 5, sold: 2 },
    ]);
    await expectInvariant(engine);
  });

  it('the safety net as its job runs it (tendWaitlists on the app’s database): a seat nobody was offered goes to the next in line', async () => {
    const { net } = world;
    await engine.write((tx) => addSeatsUnoffered(tx, net.typeId, 1));
    expect(await tendWaitlists({ ...world.t.deps, db: engine.db }, now())).toBe(1);
    const entries = await engine.read((db) => entriesOf(db, net.entryIds));
    expect(entries.map((e) => e.status)).toEqual([...Array(6).fill('offered'), 'waiting']);
    // Nothing more to offer: a second run (another tick, or another server's) offers nothing.
    expect(await tendWaitlists({ ...world.t.deps, db: engine.db }, now())).toBe(0);
    await expectInvariant(engine);
  });
});

/** A SQLite installation made by the app: three sold-out types with waiting lists joined in order. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp();
  await appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const soldOut = async (seats: number, perBooking: number, waiting: number[]): Promise<SoldOut> => {
    const ev = createTicketedEvent(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: seats }],
    });
    // A per-buyer maximum, so each offer reads what its person already holds and bought (on both engines).
    t.deps.db.update(events).set({ maxTicketsPerBuyer: 4 }).where(eq(events.id, ev.eventId)).run();
    const bookingIds: string[] = [];
    for (let sold = 0; sold < seats; sold += perBooking) {
      bookingIds.push((await buyTickets(t, ev, perBooking)).bookingId);
    }
    const entryIds: string[] = [];
    for (const quantity of waiting) {
      entryIds.push(await join(t, ev, quantity));
      // One millisecond apart, so the list's order is the order of joining.
      t.clock.advance(1);
    }
    return { typeId: ev.ticketTypeIds[0]!, bookingIds, entryIds };
  };
  return {
    t,
    solo: await soldOut(2, 2, [2, 2, 1]),
    race: await soldOut(10, 1, Array(12).fill(1)),
    net: await soldOut(5, 1, Array(7).fill(1)),
  };
}

async function join(t: TestApp, ev: TicketedEvent, quantity: number): Promise<string> {
  const buyer = createSignedInUser(t);
  const res = await callProcedure(
    t,
    'mutation',
    'waitlist.join',
    {
      ticketTypeId: ev.ticketTypeIds[0]!,
      quantity,
      details: { ...DETAILS, email: buyer.email, name: buyer.name },
    },
    { cookie: buyer.cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.data as { entryId: string }).entryId;
}

/** Seats added to a type's capacity by hand, offered to nobody: the safety net's case. */
function* addSeatsUnoffered(tx: WriteTx, typeId: string, seats: number): Steps<void> {
  const { ticketTypes } = tablesOf(tx);
  yield* changes(
    tx
      .update(ticketTypes)
      .set({
        totalTickets: sql`${ticketTypes.totalTickets} + ${seats}`,
        availableTickets: sql`${ticketTypes.availableTickets} + ${seats}`,
      })
      .where(eq(ticketTypes.id, typeId)),
  );
}

/** The entries, in the order of `ids`. */
function* entriesOf(db: WriteTx, ids: string[]) {
  const { waitlistEntries } = tablesOf(db);
  const found = yield* rows(db.select().from(waitlistEntries).where(inArray(waitlistEntries.id, ids)));
  return ids.map((id) => found.find((e) => e.id === id)!);
}

/** The holds (each of one line), in the order of `ids`. */
function* offerHoldsOf(db: WriteTx, ids: string[]) {
  const { holds, holdItems } = tablesOf(db);
  const found = yield* rows(
    db
      .select({
        id: holds.id,
        userId: holds.userId,
        status: holds.status,
        sessionExpiresAt: holds.sessionExpiresAt,
        ticketTypeId: holdItems.ticketTypeId,
        quantity: holdItems.quantity,
      })
      .from(holds)
      .innerJoin(holdItems, eq(holdItems.holdId, holds.id))
      .where(inArray(holds.id, ids)),
  );
  return ids.map((id) => found.find((h) => h.id === id)!);
}

function* activeHoldsOfType(db: WriteTx, typeId: string): Steps<number> {
  const { holds, holdItems } = tablesOf(db);
  const found = yield* rows(
    db
      .select({ id: holds.id })
      .from(holds)
      .innerJoin(holdItems, eq(holdItems.holdId, holds.id))
      .where(and(eq(holdItems.ticketTypeId, typeId), eq(holds.status, 'active'))),
  );
  return found.length;
}

function* offerMailKeysOf(db: WriteTx, entryIds: string[]): Steps<string[]> {
  const { outbox } = tablesOf(db);
  const keys = yield* rows(
    db
      .select({ key: outbox.idempotencyKey })
      .from(outbox)
      .where(like(outbox.idempotencyKey, 'waitlist-offer:%'))
      .orderBy(asc(outbox.idempotencyKey)),
  );
  const mine = new Set(entryIds.map((id) => `waitlist-offer:${id}`));
  return keys.map((k) => k.key).filter((key) => mine.has(key));
}

interface Counts {
  total: number;
  available: number;
  held: number;
  sold: number;
}

async function expectInvariant(engine: Engine) {
  const { solo, race, net } = world;
  const counts = await engine.read((db) => inventoryOf(db, [solo.typeId, race.typeId, net.typeId]));
  for (const c of counts) {
    expect(c.available).toBeGreaterThanOrEqual(0);
    expect(c.available + c.held + c.sold).toBe(c.total);
  }
}

/**
 * The inventory invariant's terms per ticket type, in the order of `typeIds`, read through the engine
 * (as test/helpers/inventory.ts counts them on SQLite): active holds and confirmed bookings.
 */
function* inventoryOf(db: WriteTx, typeIds: string[]): Steps<Counts[]> {
  const { ticketTypes, holds, holdItems, bookings } = tablesOf(db);
  const counts = new Map<string, Counts>();
  const types = yield* rows(db.select().from(ticketTypes).where(inArray(ticketTypes.id, typeIds)));
  for (const type of types) {
    counts.set(type.id, { total: type.totalTickets, available: type.availableTickets, held: 0, sold: 0 });
  }
  const held = yield* rows(
    db
      .select({ ticketTypeId: holdItems.ticketTypeId, quantity: holdItems.quantity })
      .from(holdItems)
      .innerJoin(holds, eq(holds.id, holdItems.holdId))
      .where(and(eq(holds.status, 'active'), inArray(holdItems.ticketTypeId, typeIds))),
  );
  for (const item of held) counts.get(item.ticketTypeId)!.held += item.quantity;
  const sold = yield* rows(
    db
      .select({ lines: bookings.ticketTypes })
      .from(bookings)
      .where(or(eq(bookings.status, 'confirmed'), eq(bookings.seatsKept, true))),
  );
  for (const booking of sold) {
    for (const line of booking.lines) {
      const c = counts.get(line.id);
      if (c) c.sold += line.quantity;
    }
  }
  return typeIds.map((id) => counts.get(id)!);
}
