import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { Db, DbOrTx } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb, pgWriteTransaction } from '../../src-server/db/engine/postgres.ts';
import { rows, runAsync, runSync, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { addOns, addOnVariants } from '../../src-server/db/schema/add-ons.ts';
import { discountCodes } from '../../src-server/db/schema/discounts.ts';
import { quotas, quotaTicketTypes } from '../../src-server/db/schema/quotas.ts';
import { writeTransaction } from '../../src-server/db/write-transaction.ts';
import {
  HOLD_GRACE_MS,
  type HoldLine,
  type ReserveInput,
  releaseHoldSteps,
  reserveSteps,
  sweepExpiredHolds,
} from '../../src-server/services/inventory/holds.ts';
import { PAYMENT_SESSION_MS } from '../../src-server/services/inventory/payment-session.ts';
import { createAccount } from '../helpers/console-world.ts';
import { inventoryOf, quotasOf } from '../helpers/engine-inventory.ts';
import { createTicketedEvent, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// ADR 0045: the hold and its release, written once (inventory/holds.ts's `reserveSteps` and
// `releaseHoldSteps`), proved by the same races on both engines. On PostgreSQL the 50 racers run as
// real concurrent transactions on two pools of 10 connections each, as two app servers would: every
// row is decided by a conditional UPDATE on the row as committed, and rows are taken in one order.

const RACERS = 50;

interface Engine {
  /** The app's database on each of two servers, as the composition root hands it to the jobs. */
  servers: [Db, Db];
  write: <T>(transition: (tx: DbOrTx) => Steps<T>, racer?: number) => Promise<T>;
  read: <T>(steps: (db: DbOrTx) => Steps<T>) => Promise<T>;
  close: () => Promise<void>;
}

interface World {
  t: TestApp;
  ev: TicketedEvent;
  buyers: string[];
  /** 5 seats. */
  lastFive: string;
  /** Two types of 10 seats sharing a quota of 1. */
  quotaTypes: [string, string];
  quotaId: string;
  /** 100 seats: the code and add-on races buy here. */
  plenty: string;
  /** A code with one use left. */
  lastUseCode: string;
  lastUseCodeId: string;
  /** A T-shirt variant with one left. */
  lastShirt: string;
  /** Two types of 100 seats bought together. */
  duo: [string, string];
  /** 10 seats and no quota, until one is created while a hold waits on the type's row. */
  lateQuota: string;
  /** The release race: a type in a quota of its own, a code and a variant with room. */
  released: { typeId: string; quotaId: string; code: string; codeId: string; variantId: string };
}

const serverUrl = testPostgresUrl('engine-holds.test.ts');
let world: World;
let target: ScratchPostgres | undefined;

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_holds');
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
        servers: [db, db],
        write: (transition) => writeTransaction(db, () => runSync(transition(db))),
        read: async (steps) => runSync(steps(db)),
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
        await openPostgres(target!.url, { poolSize: 10 }),
        await openPostgres(target!.url, { poolSize: 10 }),
      ];
      return {
        servers: [pools[0] as unknown as Db, pools[1] as unknown as Db],
        write: (transition, racer = 0) => pgWriteTransaction(pools[racer % 2]!, transition),
        read: (steps) => runAsync(steps(pools[0] as unknown as DbOrTx), pools[0]!),
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

describe.each(engines)('the hold and its release, written once, on %s', (_name, open) => {
  let engine: Engine;
  const now = () => world.t.clock.now();
  const hold = (racer: number, lines: HoldLine[], extra: Partial<ReserveInput> = {}) =>
    engine.write((tx) => reserveSteps(tx, input(world.buyers[racer]!, lines, extra), now()), racer);
  const race = (make: (racer: number) => Promise<unknown>) =>
    Promise.allSettled(Array.from({ length: RACERS }, (_, i) => make(i)));

  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it('50 buyers racing for the last 5 seats of a type: exactly 5 hold one, available + held + sold = total', async () => {
    const outcomes = await race((i) => hold(i, [{ ticketTypeId: world.lastFive, quantity: 1 }]));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(String(o.reason)).toMatch(/Sold Out/);
    }
    const [count] = await engine.read((db) => inventoryOf(db, [world.lastFive]));
    expect(count).toMatchObject({ total: 5, available: 0, held: 5 });
    await expectInvariants(engine);
  });

  it("50 buyers racing for a code's last use: one gets it, the rest are told it is used up", async () => {
    const outcomes = await race((i) =>
      hold(i, [{ ticketTypeId: world.plenty, quantity: 1 }], { discountCode: world.lastUseCode }),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(String(o.reason)).toMatch(/used up|already been used/i);
    }
    const [code] = await engine.read((db) => codesOf(db, [world.lastUseCodeId]));
    expect(code!.uses).toBe(code!.maxUses);
    await expectInvariants(engine);
  });

  it("50 buyers racing across two types for a quota's last seat: exactly one holds it", async () => {
    const outcomes = await race((i) => hold(i, [{ ticketTypeId: world.quotaTypes[i % 2]!, quantity: 1 }]));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [quota] = await engine.read((db) => quotasOf(db, [world.quotaId]));
    expect(quota!.available).toBe(0);
    const counts = await engine.read((db) => inventoryOf(db, world.quotaTypes));
    expect(counts.reduce((sum, c) => sum + c.held, 0)).toBe(1);
    await expectInvariants(engine);
  });

  it("50 buyers racing for an add-on's last item: one gets it, with its seat", async () => {
    const before = await engine.read((db) => inventoryOf(db, [world.plenty]));
    const outcomes = await race((i) =>
      hold(i, [{ ticketTypeId: world.plenty, quantity: 1 }], {
        addOns: [{ variantId: world.lastShirt, quantity: 1 }],
      }),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [variant] = await engine.read((db) => variantsOf(db, [world.lastShirt]));
    expect(variant!.available).toBe(0);
    // The refused holds' seats were rolled back with them.
    const after = await engine.read((db) => inventoryOf(db, [world.plenty]));
    expect(after[0]!.available).toBe(before[0]!.available - 1);
    await expectInvariants(engine);
  });

  it('50 buyers taking two types named in opposite orders, while their holds are released: all pass, no deadlock', async () => {
    const [x, y] = world.duo;
    const outcomes = await race((i) =>
      hold(
        i,
        i % 2 === 0
          ? [
              { ticketTypeId: x, quantity: 1 },
              { ticketTypeId: y, quantity: 1 },
            ]
          : [
              { ticketTypeId: y, quantity: 1 },
              { ticketTypeId: x, quantity: 1 },
            ],
      ).then((held) => engine.write((tx) => releaseHoldSteps(tx, held.id, 'replaced', now()), i + 1)),
    );
    expect(
      outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason)),
    ).toEqual([]);
    const counts = await engine.read((db) => inventoryOf(db, [x, y]));
    for (const c of counts) expect(c).toMatchObject({ available: 100, held: 0 });
  });

  it('two releases of one hold racing: its seats, quota seat, add-on and code use come back exactly once', async () => {
    const { typeId, quotaId, code, codeId, variantId } = world.released;
    const read = () =>
      engine.read(function* (db) {
        return {
          type: (yield* inventoryOf(db, [typeId]))[0]!,
          quota: (yield* quotasOf(db, [quotaId]))[0]!,
          code: (yield* codesOf(db, [codeId]))[0]!,
          variant: (yield* variantsOf(db, [variantId]))[0]!,
        };
      });
    const before = await read();
    const held = await hold(0, [{ ticketTypeId: typeId, quantity: 3 }], {
      discountCode: code,
      addOns: [{ variantId, quantity: 2 }],
    });
    const during = await read();
    expect(during.type.available).toBe(before.type.available - 3);
    expect(during.quota.available).toBe(before.quota.available - 3);
    expect(during.code.uses).toBe(before.code.uses + 1);
    expect(during.variant.available).toBe(before.variant.available - 2);
    const released = await Promise.all(
      [0, 1, 2, 3].map((racer) =>
        engine.write((tx) => releaseHoldSteps(tx, held.id, 'expired', now()), racer),
      ),
    );
    expect(released.filter(Boolean)).toHaveLength(1);
    expect(await read()).toEqual(before);
    await expectInvariants(engine);
  });

  it('the sweeper as its job runs it, on two servers at once: every expired hold released once, its seats back', async () => {
    const { typeId } = world.released;
    await hold(1, [{ ticketTypeId: typeId, quantity: 2 }]);
    await hold(2, [{ ticketTypeId: typeId, quantity: 1 }]);
    const active = () =>
      engine.read(function* (db) {
        const { holds } = tablesOf(db);
        return (yield* rows(db.select({ id: holds.id }).from(holds).where(eq(holds.status, 'active'))))
          .length;
      });
    const expiring = await active();
    expect(expiring).toBeGreaterThanOrEqual(2);
    // Past every hold's expiry and its grace (the earlier cases' holds expire too).
    world.t.clock.advance(PAYMENT_SESSION_MS + HOLD_GRACE_MS + 60_000);
    const swept = await Promise.all(engine.servers.map((db) => sweepExpiredHolds(db, now())));
    expect(swept[0]! + swept[1]!).toBe(expiring);
    expect(await active()).toBe(0);
    await expectInvariants(engine);
  });

  // PostgreSQL only: on SQLite the hold reads its type and quotas under the single writer's lock.
  it.runIf(_name === 'PostgreSQL')(
    "a quota created while a hold waits for its type's row is charged by that hold",
    async () => {
      const typeId = world.lateQuota;
      const quotaId = `${world.ev.eventId}-q-late`;
      const editor = new pg.Client({ connectionString: target!.url });
      await editor.connect();
      try {
        // The quota editor's order (quotas/quota-members.ts): the member types' rows FOR UPDATE, then the
        // quota. The hold reads the type (no quota yet), then its conditional UPDATE waits for the row.
        await editor.query('BEGIN');
        await editor.query('SELECT id FROM ticket_types WHERE id = $1 FOR UPDATE', [typeId]);
        // The refusal may arrive before COMMIT's own answer does: its expectation is attached at once, so
        // the rejection is never unhandled for a tick (Vitest counts that as an error of the run).
        const refused = expect(hold(0, [{ ticketTypeId: typeId, quantity: 2 }])).rejects.toThrow(
          'Insufficient tickets available for Balcony',
        );
        await waitForLockWaiter(editor);
        const at = now().toISOString();
        await editor.query(
          `INSERT INTO quotas (id, event_id, name, capacity, available, created_at, updated_at)
           VALUES ($1, $2, 'Late', 1, 1, $3, $3)`,
          [quotaId, world.ev.eventId, at],
        );
        await editor.query('INSERT INTO quota_ticket_types (ticket_type_id, quota_id) VALUES ($1, $2)', [
          typeId,
          quotaId,
        ]);
        await editor.query('COMMIT');
        // The quota allows 1: a hold of 2 is refused, and neither the quota nor the type gave a seat.
        await refused;
        const [quota] = await engine.read((db) => quotasOf(db, [quotaId]));
        expect(quota!.available).toBe(1);
        const [type] = await engine.read((db) => inventoryOf(db, [typeId]));
        expect(type).toMatchObject({ available: 10 });
      } finally {
        await editor.end();
      }
    },
  );
});

/** Until some statement of this database waits for a lock (the one `holder`'s transaction holds). */
async function waitForLockWaiter(holder: pg.Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows: found } = await holder.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (found[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('nothing waited for a lock');
}

function input(userId: string, lines: HoldLine[], extra: Partial<ReserveInput>): ReserveInput {
  return {
    userId,
    eventId: world.ev.eventId,
    eventDateId: world.ev.dateId,
    slotId: world.ev.slotId,
    lines,
    details: DETAILS,
    userCity: null,
    platformFeeRate: 10,
    ...extra,
  };
}

/** The three counts of ADR 0039 and 0041 and issue 40, read on the engine under test. */
async function expectInvariants(engine: Engine) {
  const counts = await engine.read((db) => inventoryOf(db, allTypes()));
  for (const c of counts) expect(c.available + c.held + c.sold, c.ticketTypeId).toBe(c.total);
  const heldOfType = new Map(counts.map((c) => [c.ticketTypeId, c.held]));
  const quotaRows = await engine.read((db) => quotasOf(db, [world.quotaId, world.released.quotaId]));
  const members = await engine.read(function* (db) {
    const { quotaTicketTypes } = tablesOf(db);
    return yield* rows(db.select().from(quotaTicketTypes));
  });
  for (const q of quotaRows) {
    const held = members
      .filter((m) => m.quotaId === q.id)
      .reduce((sum, m) => sum + (heldOfType.get(m.ticketTypeId) ?? 0), 0);
    expect(q.available + held, q.id).toBe(q.capacity);
  }
  const variants = await engine.read((db) => variantsOf(db, [world.lastShirt, world.released.variantId]));
  for (const v of variants) expect(v.available + v.held, v.id).toBe(v.stock);
  const codes = await engine.read((db) => codesOf(db, [world.lastUseCodeId, world.released.codeId]));
  for (const c of codes) expect(c.uses, c.id).toBe(c.unreturned);
}

const allTypes = () => [
  world.lastFive,
  ...world.quotaTypes,
  world.plenty,
  ...world.duo,
  world.released.typeId,
];

function* variantsOf(db: DbOrTx, ids: string[]) {
  const { addOnVariants, holdAddOns, holds } = tablesOf(db);
  const variants = yield* rows(
    db
      .select({ id: addOnVariants.id, stock: addOnVariants.stock, available: addOnVariants.available })
      .from(addOnVariants)
      .where(inArray(addOnVariants.id, ids)),
  );
  const held = yield* rows(
    db
      .select({ variantId: holdAddOns.variantId, quantity: holdAddOns.quantity })
      .from(holdAddOns)
      .innerJoin(holds, eq(holds.id, holdAddOns.holdId))
      .where(eq(holds.status, 'active')),
  );
  return ids.map((id) => ({
    ...variants.find((v) => v.id === id)!,
    held: held.filter((h) => h.variantId === id).reduce((sum, h) => sum + h.quantity, 0),
  }));
}

function* codesOf(db: DbOrTx, ids: string[]) {
  const { discountCodes, holds } = tablesOf(db);
  const codes = yield* rows(
    db
      .select({ id: discountCodes.id, uses: discountCodes.uses, maxUses: discountCodes.maxUses })
      .from(discountCodes)
      .where(inArray(discountCodes.id, ids)),
  );
  const taken = yield* rows(
    db.select({ codeId: holds.discountCodeId, returnedAt: holds.discountReturnedAt }).from(holds),
  );
  return ids.map((id) => ({
    ...codes.find((c) => c.id === id)!,
    unreturned: taken.filter((h) => h.codeId === id && h.returnedAt === null).length,
  }));
}

/** A SQLite installation made by the app's own helpers: one event, its types, a quota, codes, add-ons. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp();
  await appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const ev = createTicketedEvent(t.deps.db, {
    name: 'Lollapalooza India',
    types: [
      { name: 'Last Five', pricePaise: 50_000, totalTickets: 5 },
      { name: 'Pit Left', pricePaise: 80_000, totalTickets: 10 },
      { name: 'Pit Right', pricePaise: 80_000, totalTickets: 10 },
      { name: 'General', pricePaise: 30_000, totalTickets: 100 },
      { name: 'Lounge', pricePaise: 150_000, totalTickets: 10 },
      { name: 'Day One', pricePaise: 40_000, totalTickets: 100 },
      { name: 'Day Two', pricePaise: 40_000, totalTickets: 100 },
      { name: 'Balcony', pricePaise: 60_000, totalTickets: 10 },
    ],
    platformFeeRate: 10,
  });
  const [lastFive, left, right, plenty, lounge, dayOne, dayTwo, balcony] = ev.ticketTypeIds as string[] as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const buyers = Array.from({ length: RACERS }, () => createAccount(t).userId);
  const { db } = t.deps;
  const at = t.clock.now().toISOString();
  const stamp = { createdAt: at, updatedAt: at };
  db.insert(quotas)
    .values([
      { id: `${ev.eventId}-q-pit`, eventId: ev.eventId, name: 'Pit', capacity: 1, available: 1, ...stamp },
      {
        id: `${ev.eventId}-q-lounge`,
        eventId: ev.eventId,
        name: 'Lounge',
        capacity: 6,
        available: 6,
        ...stamp,
      },
    ])
    .run();
  db.insert(quotaTicketTypes)
    .values([
      { ticketTypeId: left, quotaId: `${ev.eventId}-q-pit` },
      { ticketTypeId: right, quotaId: `${ev.eventId}-q-pit` },
      { ticketTypeId: lounge, quotaId: `${ev.eventId}-q-lounge` },
    ])
    .run();
  const code = (id: string, name: string, maxUses: number, uses: number) => ({
    id,
    eventId: ev.eventId,
    code: name,
    codeKey: name.toLowerCase(),
    kind: 'percent' as const,
    percentOff: 10,
    maxUses,
    uses,
    ...stamp,
  });
  db.insert(discountCodes)
    .values([code(`${ev.eventId}-c-last`, 'LASTONE', 1, 0), code(`${ev.eventId}-c-room`, 'ROOMY', 100, 0)])
    .run();
  db.insert(addOns)
    .values({
      id: `${ev.eventId}-tee`,
      eventId: ev.eventId,
      name: 'Festival T-shirt',
      pricePaise: 80_000,
      taxRatePercent: 12,
      hsnSac: '6109',
      maxPerOrder: 4,
      ...stamp,
    })
    .run();
  db.insert(addOnVariants)
    .values([
      {
        id: `${ev.eventId}-tee-m`,
        addOnId: `${ev.eventId}-tee`,
        name: 'M',
        stock: 1,
        available: 1,
        position: 0,
      },
      {
        id: `${ev.eventId}-tee-l`,
        addOnId: `${ev.eventId}-tee`,
        name: 'L',
        stock: 10,
        available: 10,
        position: 1,
      },
    ])
    .run();
  return {
    t,
    ev,
    buyers,
    lastFive,
    quotaTypes: [left, right],
    quotaId: `${ev.eventId}-q-pit`,
    lateQuota: balcony,
    plenty,
    duo: [dayOne, dayTwo],
    lastUseCode: 'LastOne',
    lastUseCodeId: `${ev.eventId}-c-last`,
    lastShirt: `${ev.eventId}-tee-m`,
    released: {
      typeId: lounge,
      quotaId: `${ev.eventId}-q-lounge`,
      code: 'roomy',
      codeId: `${ev.eventId}-c-room`,
      variantId: `${ev.eventId}-tee-l`,
    },
  };
}
