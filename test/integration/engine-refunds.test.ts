import { and, eq, inArray, like, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import { openPostgres, type PgDb, pgWriteTransaction } from '../../src-server/db/engine/postgres.ts';
import { rows, runAsync, runSync, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { type WriteTx, writeTransaction } from '../../src-server/db/write-transaction.ts';
import { cancelBookingSteps } from '../../src-server/services/bookings/cancel-booking-in.ts';
import { refundPartSteps } from '../../src-server/services/partial-refunds/refund-part-in.ts';
import {
  claimRefundSteps,
  markRefundProcessedSteps,
} from '../../src-server/services/refunds/issue-refund.ts';
import { queueRefundSteps } from '../../src-server/services/refunds/queue-refund.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// ADR 0045: the refund transitions (a cancellation, its refund's queue and claim, a part refund and the
// credit notes they number), written once, on both engines, from the same installation: one made by the
// app on SQLite and, for PostgreSQL, moved there. On PostgreSQL every race runs on two pools at once, as
// two app servers would.

interface Engine {
  /** One write transaction, on the `pool`-th server's pool (two on PostgreSQL, one database on SQLite). */
  write: <T>(transition: (tx: WriteTx) => Steps<T>, pool?: number) => Promise<T>;
  /** Statements outside a transaction (a job's claim), or reads. */
  run: <T>(steps: (db: WriteTx) => Steps<T>, pool?: number) => Promise<T>;
  close: () => Promise<void>;
}

interface World {
  t: TestApp;
  ownerId: string;
  typeIds: string[];
  /** Gold × 2, cancelled by racing cancels. */
  raced: { bookingId: string; paymentId: string };
  /** Silver × 4, refunded in parts by racing requests. */
  parted: { bookingId: string; paymentId: string };
  /** Two bookings cancelled at once from the two servers: their credit notes share a series. */
  pair: string[];
}

const serverUrl = testPostgresUrl('engine-refunds.test.ts');
let world: World;
let target: ScratchPostgres | undefined;

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_refunds');
  }
}, 60_000);

afterAll(async () => {
  await target?.drop({ waitForClosing: true });
});

const engines: [string, () => Promise<Engine>][] = [
  [
    'SQLite',
    async () => {
      const { db } = world.t.deps;
      return {
        write: (transition) => writeTransaction(db, (tx) => runSync(transition(tx))),
        run: async (steps) => runSync(steps(db as unknown as WriteTx)),
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
        write: (transition, pool) => pgWriteTransaction(on(pool), transition),
        run: (steps, pool) => runAsync(steps(on(pool) as unknown as WriteTx), on(pool)),
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

describe.each(engines)('refund transitions, written once, on %s', (_name, open) => {
  let engine: Engine;
  const now = () => world.t.clock.now();
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it('8 racing cancels of one booking: one cancels it, its seats come back exactly once, one refund is queued', async () => {
    const before = await engine.run((db) => inventoryOf(db, world.typeIds));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        engine.write(
          (tx) => cancelBookingSteps(tx, world.t.deps, world.raced.bookingId, 'organiser', now()),
          i,
        ),
      ),
    );
    const won = results.filter((r) => r !== null);
    expect(won).toHaveLength(1);
    const after = await engine.run((db) => inventoryOf(db, world.typeIds));
    const gold = world.typeIds[0]!;
    expect(after.get(gold)!.available).toBe(before.get(gold)!.available + 2);
    expect(after.get(world.typeIds[1]!)!.available).toBe(before.get(world.typeIds[1]!)!.available);
    for (const c of after.values()) expect(c.available + c.held + c.sold).toBe(c.total);
    const queued = await engine.run((db) => refundsOf(db, world.raced.paymentId));
    expect(queued).toHaveLength(1);
    expect(queued[0]!.id).toBe(won[0]!.refundId);
  });

  it('the refund is queued once, of 10 workers claiming it at once one gets it, and its result is recorded once', async () => {
    const [refund] = await engine.run((db) => refundsOf(db, world.raced.paymentId));
    const again = await engine.write((tx) =>
      queueRefundSteps(
        tx,
        {
          paymentId: world.raced.paymentId,
          orderId: refund!.orderId,
          userId: refund!.userId,
          amountPaise: refund!.amountPaise,
          reason: 'booking_cancelled',
        },
        now(),
      ),
    );
    expect(again).toBeNull();
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => engine.run((db) => claimRefundSteps(db, refund!.id, now()), i)),
    );
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
    const [claimed] = await engine.run((db) => refundsOf(db, world.raced.paymentId));
    expect(claimed!.attempts).toBe(1);
    // The gateway's answer, recorded in its own transaction after the call: once, with the buyer's mail.
    const marks = await Promise.all(
      [0, 1].map((pool) =>
        engine.write(
          (tx) => markRefundProcessedSteps(tx, world.t.deps, (r) => eq(r.id, refund!.id), 'rfnd_1', now()),
          pool,
        ),
      ),
    );
    expect(marks.filter(Boolean)).toHaveLength(1);
    const [done] = await engine.run((db) => refundsOf(db, world.raced.paymentId));
    expect(done).toMatchObject({ status: 'processed', gatewayRefundId: 'rfnd_1' });
    expect(await engine.run((db) => mailKeysLike(db, 'booking-refunded:'))).toEqual([
      `booking-refunded:${world.raced.bookingId}`,
    ]);
  });

  it('10 racing part refunds of 30% each: three pass, the rest are refused, never more than was paid', async () => {
    const [booking] = await engine.run((db) => bookingsOf(db, [world.parted.bookingId]));
    const part = Math.ceil(booking!.totalAmountPaise * 0.3);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        engine.write(
          (tx) =>
            refundPartSteps(
              tx,
              world.t.deps,
              world.parted.bookingId,
              {
                kind: 'organiser',
                amountPaise: part,
                reason: 'Stage view blocked',
                cancelTickets: [],
                actorUserId: world.ownerId,
              },
              now(),
            ),
          i,
        ),
      ),
    );
    const passed = outcomes.filter((o) => o.status === 'fulfilled');
    expect(passed).toHaveLength(3);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(String(o.reason)).toMatch(/You can refund at most/);
    }
    const parts = await engine.run((db) => partsOf(db, world.parted.bookingId));
    expect(parts.map((p) => p.amountPaise)).toEqual([part, part, part]);
    expect(parts.reduce((sum, p) => sum + p.amountPaise, 0)).toBeLessThanOrEqual(booking!.totalAmountPaise);
  });

  it('two bookings cancelled at once from two servers: credit note numbers run on with no gap and no duplicate', async () => {
    const results = await Promise.all(
      world.pair.map((bookingId, i) =>
        engine.write((tx) => cancelBookingSteps(tx, world.t.deps, bookingId, 'organiser', now()), i),
      ),
    );
    expect(results.every((r) => r !== null)).toBe(true);
    const numbers = await engine.run((db) => creditNoteNumbersOf(db, world.ownerId));
    // The racing cancel's note, the three part refunds' notes and the pair's two.
    expect(numbers).toEqual(
      Array.from({ length: 6 }, (_, i) =>
        expect.stringMatching(new RegExp(`/${String(i + 1).padStart(6, '0')}$`)),
      ),
    );
    const after = await engine.run((db) => inventoryOf(db, world.typeIds));
    for (const c of after.values()) expect(c.available + c.held + c.sold).toBe(c.total);
  });
});

/** A SQLite installation made by the app: an organiser with a GST profile, two types, four bookings. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp();
  await appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const owner = createAccount(t, 'organiser');
  await saveTaxProfile(t, owner.userId);
  const ev = createTicketedEvent(t.deps.db, {
    name: 'Sunburn Arena Mumbai',
    types: [
      { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
      { name: 'Silver', pricePaise: 50_000, totalTickets: 40 },
    ],
    platformFeeRate: 10,
  });
  t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId)).run();
  const raced = await buyTickets(t, ev, 2);
  const silver = { ...ev, ticketTypeIds: [ev.ticketTypeIds[1]!] };
  const parted = await buyTickets(t, silver, 4);
  const pair = [(await buyTickets(t, ev, 1)).bookingId, (await buyTickets(t, silver, 3)).bookingId];
  return { t, ownerId: owner.userId, typeIds: ev.ticketTypeIds, raced, parted, pair };
}

interface Counts {
  total: number;
  available: number;
  held: number;
  sold: number;
}

/**
 * The inventory invariant's terms per ticket type, read through the engine (as test/helpers/inventory.ts
 * counts them on SQLite): active holds, confirmed bookings (and cancelled ones people walked in with) and
 * tickets a part refund cancelled without giving their seats back.
 */
function* inventoryOf(db: WriteTx, typeIds: string[]): Steps<Map<string, Counts>> {
  const { ticketTypes, holds, holdItems, bookings, refundParts } = tablesOf(db);
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
      .where(eq(holds.status, 'active')),
  );
  for (const item of held) {
    const c = counts.get(item.ticketTypeId);
    if (c) c.held += item.quantity;
  }
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
  for (const part of yield* rows(db.select({ lines: refundParts.cancelledTickets }).from(refundParts))) {
    for (const line of part.lines) {
      const c = counts.get(line.id);
      if (c) c.sold += line.quantity - line.seatsReturned;
    }
  }
  return counts;
}

function* refundsOf(db: WriteTx, paymentId: string) {
  const { refunds } = tablesOf(db);
  return yield* rows(db.select().from(refunds).where(eq(refunds.paymentId, paymentId)));
}

function* bookingsOf(db: WriteTx, ids: string[]) {
  const { bookings } = tablesOf(db);
  return yield* rows(db.select().from(bookings).where(inArray(bookings.id, ids)));
}

function* partsOf(db: WriteTx, bookingId: string) {
  const { refundParts } = tablesOf(db);
  return yield* rows(db.select().from(refundParts).where(eq(refundParts.bookingId, bookingId)));
}

/** Every credit note of the organiser, whole and part, by number. */
function* creditNoteNumbersOf(db: WriteTx, issuer: string): Steps<string[]> {
  const { creditNotes, partialCreditNotes } = tablesOf(db);
  const whole = yield* rows(
    db
      .select({ number: creditNotes.number })
      .from(creditNotes)
      .where(and(eq(creditNotes.issuer, issuer))),
  );
  const parts = yield* rows(
    db
      .select({ number: partialCreditNotes.number })
      .from(partialCreditNotes)
      .where(eq(partialCreditNotes.issuer, issuer)),
  );
  return [...whole, ...parts].map((n) => n.number).sort();
}

function* mailKeysLike(db: WriteTx, prefix: string): Steps<string[]> {
  const { outbox } = tablesOf(db);
  const keys = yield* rows(
    db
      .select({ key: outbox.idempotencyKey })
      .from(outbox)
      .where(like(outbox.idempotencyKey, `${prefix}%`)),
  );
  return keys.map((k) => k.key).sort();
}
