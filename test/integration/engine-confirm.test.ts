import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import { openPostgres, type PgDb, pgWriteTransaction } from '../../src-server/db/engine/postgres.ts';
import { changes, rows, runAsync, runSync, type Steps, savepoint } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { addOns, addOnVariants } from '../../src-server/db/schema/add-ons.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { discountCodes } from '../../src-server/db/schema/discounts.ts';
import { paymentOrders } from '../../src-server/db/schema/payments.ts';
import { quotas, quotaTicketTypes } from '../../src-server/db/schema/quotas.ts';
import { type WriteTx, writeTransaction } from '../../src-server/db/write-transaction.ts';
import { releaseHold, releaseHoldSteps } from '../../src-server/services/inventory/holds.ts';
import { type ConfirmRequest, confirmPaymentSteps } from '../../src-server/services/payments/confirm.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { createSignedInUser } from '../helpers/users.ts';

// ADR 0045: the confirmation (a held order becoming a booking once its payment is captured, or a refund
// to make), written once (payments/confirm.ts's `confirmPaymentSteps`), proved on both engines from the
// same installation: holds and orders made by the app's own Proceed on SQLite and, for PostgreSQL, moved
// there. On PostgreSQL the racers run on two pools at once, as two app servers would (the webhook on one,
// the buyer's callback and the reconciler on the other).

const RACERS = 10;

interface Engine {
  write: <T>(transition: (tx: WriteTx) => Steps<T>, pool?: number) => Promise<T>;
  read: <T>(steps: (db: WriteTx) => Steps<T>) => Promise<T>;
  close: () => Promise<void>;
}

interface Order {
  orderId: string;
  holdId: string;
  amountPaise: number;
}

interface World {
  t: TestApp;
  typeIds: { plenty: string; lastTwo: string; quota: string };
  quotaId: string;
  codeId: string;
  variantId: string;
  /** A live hold of 2 × plenty. */
  live: Order;
  /** A live hold of 1 × plenty, paid once and reported ten times at once. */
  raced: Order;
  /** A released hold of 2 × plenty whose seats are still there. */
  lateFree: Order;
  /** A released hold of 1 × plenty and 2 × lastTwo, the last two seats then held by another buyer. */
  lateSold: Order;
  /** A live hold of 2 × the quota's type, with the code and an add-on. */
  coded: Order;
  /** The same again, released before its payment came. */
  codedLate: Order;
  /** Live holds of 1 × plenty, each paid while the sweeper releases it. */
  swept: Order[];
}

const serverUrl = testPostgresUrl('engine-confirm.test.ts');
let world: World;
let target: ScratchPostgres | undefined;

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_confirm');
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
        write: (transition, pool) => pgWriteTransaction(on(pool), transition),
        read: (steps) => runAsync(steps(on() as unknown as WriteTx), on()),
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

describe.each(engines)('confirmation, written once, on %s', (_name, open) => {
  let engine: Engine;
  const now = () => world.t.clock.now();
  const confirm = (order: Order, paymentId: string, pool = 0) =>
    engine.write((tx) => confirmPaymentSteps(world.t.deps, tx, request(order, paymentId), now()), pool);

  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it('savepoint: a failed statement inside is undone and the transaction goes on', async () => {
    const key = `savepoint-${_name}`;
    const outcome = await engine.write(function* (tx) {
      const { outbox } = tablesOf(tx);
      const mail = (suffix: string) => ({
        idempotencyKey: `${key}-${suffix}`,
        to: 'a@example.com',
        subject: 's',
        html: 'h',
        text: 't',
        attachments: [],
        nextAttemptAt: now().toISOString(),
        createdAt: now().toISOString(),
      });
      let refused = false;
      try {
        yield* savepoint(
          tx,
          (function* () {
            yield* changes(tx.insert(outbox).values(mail('inside')));
            // The same key again: the unique index refuses the statement itself.
            yield* changes(tx.insert(outbox).values(mail('inside')));
          })(),
        );
      } catch {
        refused = true;
      }
      yield* changes(tx.insert(outbox).values(mail('after')));
      return refused;
    });
    expect(outcome).toBe(true);
    expect(await engine.read((db) => mailKeysLike(db, `${key}-`))).toEqual([`${key}-after`]);
  });

  it('a captured payment for a live hold: one booking with its tickets, an invoice number and one queued mail', async () => {
    const outcome = await confirm(world.live, 'pay_live');
    expect(outcome).toMatchObject({ outcome: 'booked' });
    const bookingId = (outcome as { bookingId: string }).bookingId;
    const [booking, ...others] = await engine.read((db) => bookingsOfPayment(db, 'pay_live'));
    expect(others).toEqual([]);
    expect(booking).toMatchObject({ id: bookingId, status: 'confirmed', ticketCount: 2 });
    expect(booking!.ticketTypes).toEqual([
      expect.objectContaining({ id: world.typeIds.plenty, quantity: 2 }),
    ]);
    const invoices = await engine.read((db) => invoicesOf(db, [bookingId]));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.number).toMatch(/^(INV|BOS)\/\d\d-\d\d\/\d{6}$/);
    expect(await engine.read((db) => mailKeysLike(db, `booking-confirmed:${bookingId}`))).toHaveLength(1);
    expect(await engine.read((db) => holdAndOrder(db, world.live))).toEqual({
      hold: 'converted',
      order: 'paid',
    });
    // Reported again (the webhook after the callback): the same booking, nothing new.
    expect(await confirm(world.live, 'pay_live', 1)).toEqual(outcome);
    expect(await engine.read((db) => invoicesOf(db, [bookingId]))).toEqual(invoices);
    await expectInvariants(engine);
  });

  it('10 racing confirmations of one payment: exactly one booking and one invoice number', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) => confirm(world.raced, 'pay_raced', i)),
    );
    const failed = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason));
    expect(failed).toEqual([]);
    const booked = await engine.read((db) => bookingsOfPayment(db, 'pay_raced'));
    expect(booked).toHaveLength(1);
    for (const o of outcomes) {
      expect((o as PromiseFulfilledResult<unknown>).value).toEqual({
        outcome: 'booked',
        bookingId: booked[0]!.id,
      });
    }
    expect(await engine.read((db) => invoicesOf(db, [booked[0]!.id]))).toHaveLength(1);
    expect(await engine.read((db) => mailKeysLike(db, 'booking-confirmed:'))).toHaveLength(2);
    const numbers = (await engine.read((db) => invoicesOf(db))).map((i) => i.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    await expectInvariants(engine);
  });

  it('a payment after its hold expired re-takes the seats when they are free: a booking', async () => {
    const before = await engine.read((db) => inventoryOf(db));
    const outcome = await confirm(world.lateFree, 'pay_late_free');
    expect(outcome).toMatchObject({ outcome: 'booked' });
    const after = await engine.read((db) => inventoryOf(db));
    expect(after.get(world.typeIds.plenty)!.available).toBe(before.get(world.typeIds.plenty)!.available - 2);
    expect(await engine.read((db) => holdAndOrder(db, world.lateFree))).toEqual({
      hold: 'converted',
      order: 'paid',
    });
    await expectInvariants(engine);
  });

  it('a payment after its hold expired, its seats sold meanwhile: a refund to make, nothing oversold', async () => {
    const before = await engine.read((db) => inventoryOf(db));
    const outcomes = await Promise.all(
      [0, 1, 2].map((pool) => confirm(world.lateSold, 'pay_late_sold', pool)),
    );
    expect(outcomes[0]).toMatchObject({ outcome: 'refunded', paymentId: 'pay_late_sold' });
    expect(outcomes.filter((o) => 'refundId' in o && o.refundId)).toHaveLength(1);
    expect(await engine.read((db) => bookingsOfPayment(db, 'pay_late_sold'))).toEqual([]);
    const refunds = await engine.read((db) => refundsOf(db, 'pay_late_sold'));
    expect(refunds).toEqual([
      expect.objectContaining({ reason: 'seats_unavailable', amountPaise: world.lateSold.amountPaise }),
    ]);
    // The plenty line was taken again before lastTwo's failed: the savepoint gave it back.
    expect(await engine.read((db) => inventoryOf(db))).toEqual(before);
    expect((await engine.read((db) => inventoryOf(db))).get(world.typeIds.lastTwo)!.available).toBe(0);
    expect(await engine.read((db) => holdAndOrder(db, world.lateSold))).toEqual({
      hold: 'released',
      order: 'refunded',
    });
    expect(await engine.read((db) => mailKeysLike(db, 'payment-refunded:pay_late_sold'))).toHaveLength(1);
    await expectInvariants(engine);
  });

  it('a payment confirmed while the sweeper releases its hold: a booking, its seats counted once', async () => {
    const outcomes = await Promise.all(
      world.swept.map((order, i) =>
        Promise.all([
          confirm(order, `pay_swept_${i}`, i),
          engine.write((tx) => releaseHoldSteps(tx, order.holdId, 'expired', now()), i + 1),
        ]),
      ),
    );
    for (const [confirmed] of outcomes) expect(confirmed).toMatchObject({ outcome: 'booked' });
    for (const order of world.swept) {
      expect(await engine.read((db) => holdAndOrder(db, order))).toEqual({
        hold: 'converted',
        order: 'paid',
      });
    }
    await expectInvariants(engine);
  });

  it("a hold with a code, a quota and an add-on (live, and late): the code's use counted once each", async () => {
    const [codeBefore] = await engine.read((db) => codesOf(db, [world.codeId]));
    const quotaBefore = await engine.read((db) => quotaOf(db));
    const results = await Promise.all([
      ...[0, 1, 2].map((pool) => confirm(world.coded, 'pay_coded', pool)),
      ...[0, 1, 2].map((pool) => confirm(world.codedLate, 'pay_coded_late', pool)),
    ]);
    for (const r of results) expect(r).toMatchObject({ outcome: 'booked' });
    const booked = [
      ...(await engine.read((db) => bookingsOfPayment(db, 'pay_coded'))),
      ...(await engine.read((db) => bookingsOfPayment(db, 'pay_coded_late'))),
    ];
    expect(booked).toHaveLength(2);
    for (const b of booked) {
      expect(b).toMatchObject({ discountCode: 'ROOMY', ticketCount: 2 });
      expect(b.discountPaise).toBeGreaterThan(0);
    }
    const [codeAfter] = await engine.read((db) => codesOf(db, [world.codeId]));
    // The live hold's use was taken at Proceed; the late one's went back at release and is taken again.
    expect(codeAfter!.uses).toBe(codeBefore!.uses + 1);
    expect(codeAfter!.uses).toBe(codeAfter!.unreturned);
    expect(await engine.read((db) => quotaOf(db))).toBe(quotaBefore - 2);
    const lines = await engine.read((db) =>
      addOnLinesOf(
        db,
        booked.map((b) => b.id),
      ),
    );
    expect(lines).toHaveLength(2);
    await expectInvariants(engine);
  });
});

function request(order: Order, paymentId: string): ConfirmRequest {
  return { orderId: order.orderId, paymentId, amountPaise: order.amountPaise, source: 'webhook' };
}

/** available + held + sold = total per type; quota, add-on and code counts agree with the holds. */
async function expectInvariants(engine: Engine) {
  const counts = await engine.read((db) => inventoryOf(db));
  for (const [id, c] of counts) expect(c.available + c.held + c.sold, id).toBe(c.total);
  const { quotaId } = world;
  const quota = await engine.read((db) => quotaOf(db));
  const quotaType = counts.get(world.typeIds.quota)!;
  expect(quota + quotaType.held + quotaType.sold, quotaId).toBe(10);
  const [code] = await engine.read((db) => codesOf(db, [world.codeId]));
  expect(code!.uses).toBe(code!.unreturned);
}

function* inventoryOf(db: WriteTx) {
  const { ticketTypes, holds, holdItems, bookings } = tablesOf(db);
  const typeIds = Object.values(world.typeIds);
  const types = yield* rows(db.select().from(ticketTypes).where(inArray(ticketTypes.id, typeIds)));
  const counts = new Map(
    types.map((t) => [t.id, { total: t.totalTickets, available: t.availableTickets, held: 0, sold: 0 }]),
  );
  const held = yield* rows(
    db
      .select({ ticketTypeId: holdItems.ticketTypeId, quantity: holdItems.quantity })
      .from(holdItems)
      .innerJoin(holds, eq(holds.id, holdItems.holdId))
      .where(eq(holds.status, 'active')),
  );
  for (const h of held) {
    const c = counts.get(h.ticketTypeId);
    if (c) c.held += h.quantity;
  }
  const sold = yield* rows(
    db.select({ lines: bookings.ticketTypes }).from(bookings).where(eq(bookings.status, 'confirmed')),
  );
  for (const line of sold.flatMap((b) => b.lines)) {
    const c = counts.get(line.id);
    if (c) c.sold += line.quantity;
  }
  return counts;
}

function* quotaOf(db: WriteTx) {
  const { quotas } = tablesOf(db);
  const found = yield* rows(db.select().from(quotas).where(eq(quotas.id, world.quotaId)));
  return found[0]!.available;
}

function* codesOf(db: WriteTx, ids: string[]) {
  const { discountCodes, holds } = tablesOf(db);
  const codes = yield* rows(db.select().from(discountCodes).where(inArray(discountCodes.id, ids)));
  const taken = yield* rows(db.select().from(holds));
  return codes.map((c) => ({
    id: c.id,
    uses: c.uses,
    unreturned: taken.filter((h) => h.discountCodeId === c.id && h.discountReturnedAt === null).length,
  }));
}

function* bookingsOfPayment(db: WriteTx, paymentId: string) {
  const { bookings } = tablesOf(db);
  return yield* rows(db.select().from(bookings).where(eq(bookings.paymentId, paymentId)));
}

function* invoicesOf(db: WriteTx, bookingIds?: string[]) {
  const { invoices } = tablesOf(db);
  return yield* rows(
    db
      .select({ id: invoices.id, number: invoices.number, bookingId: invoices.bookingId })
      .from(invoices)
      // The organiser's admission invoice (the platform's fee invoice is numbered in its own series).
      .where(
        bookingIds
          ? and(eq(invoices.kind, 'admission'), inArray(invoices.bookingId, bookingIds))
          : eq(invoices.kind, 'admission'),
      ),
  );
}

function* refundsOf(db: WriteTx, paymentId: string) {
  const { refunds } = tablesOf(db);
  return yield* rows(db.select().from(refunds).where(eq(refunds.paymentId, paymentId)));
}

function* addOnLinesOf(db: WriteTx, bookingIds: string[]) {
  const { bookingAddOns } = tablesOf(db);
  return yield* rows(db.select().from(bookingAddOns).where(inArray(bookingAddOns.bookingId, bookingIds)));
}

function* mailKeysLike(db: WriteTx, prefix: string) {
  const { outbox } = tablesOf(db);
  const found = yield* rows(
    db
      .select({ key: outbox.idempotencyKey })
      .from(outbox)
      .where(like(outbox.idempotencyKey, `${prefix}%`)),
  );
  return found.map((m) => m.key).sort();
}

function* holdAndOrder(db: WriteTx, order: Order) {
  const { holds, paymentOrders } = tablesOf(db);
  const [hold] = yield* rows(
    db.select({ status: holds.status }).from(holds).where(eq(holds.id, order.holdId)),
  );
  const [paid] = yield* rows(
    db
      .select({ status: paymentOrders.status })
      .from(paymentOrders)
      .where(eq(paymentOrders.id, order.orderId)),
  );
  return { hold: hold?.status, order: paid?.status };
}

/** A SQLite installation made by the app itself: an organiser with invoice details, holds from Proceed. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp();
  await appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const owner = createAccount(t, 'organiser');
  await saveTaxProfile(t, owner.userId);
  const ev = createTicketedEvent(t.deps.db, {
    name: 'Sunburn Arena Mumbai',
    types: [
      { name: 'General', pricePaise: 50_000, totalTickets: 100 },
      { name: 'Last Two', pricePaise: 90_000, totalTickets: 2 },
      { name: 'Pit', pricePaise: 120_000, totalTickets: 20 },
    ],
    platformFeeRate: 10,
  });
  const { db } = t.deps;
  db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId)).run();
  const [plenty, lastTwo, quotaType] = ev.ticketTypeIds as [string, string, string];
  const at = t.clock.now().toISOString();
  const stamp = { createdAt: at, updatedAt: at };
  const quotaId = `${ev.eventId}-q`;
  db.insert(quotas)
    .values({ id: quotaId, eventId: ev.eventId, name: 'Pit', capacity: 10, available: 10, ...stamp })
    .run();
  db.insert(quotaTicketTypes).values({ ticketTypeId: quotaType, quotaId }).run();
  const codeId = `${ev.eventId}-c`;
  db.insert(discountCodes)
    .values({
      id: codeId,
      eventId: ev.eventId,
      code: 'ROOMY',
      codeKey: 'roomy',
      kind: 'percent',
      percentOff: 10,
      maxUses: 100,
      uses: 0,
      ...stamp,
    })
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
  const variantId = `${ev.eventId}-tee-m`;
  db.insert(addOnVariants)
    .values({ id: variantId, addOnId: `${ev.eventId}-tee`, name: 'M', stock: 10, available: 10, position: 0 })
    .run();

  const hold = async (lines: [string, number][], extra: object = {}): Promise<Order> => {
    const buyer = createSignedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1, {
      selectedTickets: lines.map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity })),
      ...extra,
    });
    const order = db
      .select({ amountPaise: paymentOrders.amountPaise })
      .from(paymentOrders)
      .where(eq(paymentOrders.id, session.orderId))
      .get()!;
    return { orderId: session.orderId, holdId: session.holdId, amountPaise: order.amountPaise };
  };
  const expire = (order: Order) => releaseHold(db, order.holdId, 'expired', t.clock.now());
  const codeAndShirt = { discountCode: 'roomy', addOns: [{ variantId, quantity: 1 }] };

  const live = await hold([[plenty, 2]]);
  const raced = await hold([[plenty, 1]]);
  const lateFree = await hold([[plenty, 2]]);
  await expire(lateFree);
  const lateSold = await hold([
    [plenty, 1],
    [lastTwo, 2],
  ]);
  await expire(lateSold);
  await hold([[lastTwo, 2]]);
  const coded = await hold([[quotaType, 2]], codeAndShirt);
  const codedLate = await hold([[quotaType, 2]], codeAndShirt);
  await expire(codedLate);
  const swept: Order[] = [];
  for (let i = 0; i < 8; i++) swept.push(await hold([[plenty, 1]]));
  return {
    t,
    typeIds: { plenty, lastTwo, quota: quotaType },
    quotaId,
    codeId,
    variantId,
    live,
    raced,
    lateFree,
    lateSold,
    coded,
    codedLate,
    swept,
  };
}
