import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOARDING_MESSAGES } from '../../shared/hoarding-messages.ts';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { DbOrTx } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb, pgWriteTransaction } from '../../src-server/db/engine/postgres.ts';
import { changes, rows, runAsync, runSync, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { attendeeNameSettings, ticketQuestions } from '../../src-server/db/schema/questions.ts';
import { quotas, quotaTicketTypes } from '../../src-server/db/schema/quotas.ts';
import { writeTransaction } from '../../src-server/db/write-transaction.ts';
import { conflict } from '../../src-server/errors.ts';
import type { HoardingContext } from '../../src-server/services/inventory/hoarding.ts';
import {
  type HoldLine,
  type ReplaceOutcome,
  type ReserveInput,
  replaceHoldsAndReserveSteps,
} from '../../src-server/services/inventory/holds.ts';
import {
  checkCheckoutAnswersSteps,
  saveHoldAnswersSteps,
} from '../../src-server/services/questions/checkout-answers.ts';
import { createAccount } from '../helpers/console-world.ts';
import { inventoryOf, quotasOf } from '../helpers/engine-inventory.ts';
import { createTicketedEvent, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// ADR 0045: Proceed's whole transaction (inventory/holds.ts's `replaceHoldsAndReserveSteps`: the
// hoarding rules, the release of the buyer's earlier hold, the new hold), written once and proved by
// the same races on both engines. On PostgreSQL the racers run as real concurrent transactions on two
// pools of 10 connections each, as two app servers would. Set up as engine-holds.test.ts: a SQLite
// installation made by the app's own helpers, moved to a fresh PostgreSQL database.

const BUYERS = 50;

interface Engine {
  write: <T>(transition: (tx: DbOrTx) => Steps<T>, racer?: number) => Promise<T>;
  read: <T>(steps: (db: DbOrTx) => Steps<T>) => Promise<T>;
  close: () => Promise<void>;
}

interface World {
  t: TestApp;
  ev: TicketedEvent;
  /** 4 seats: a replacement needs the seats its own earlier hold has. */
  replaceType: string;
  /** 1 seat, after `replaceType` in id order: a Proceed asking 2 fails after taking its other line. */
  lastOne: string;
  /** 30 seats in a quota of 20: ten Proceeds of one buyer race here. */
  racingType: string;
  quotaId: string;
  /** Two types of 100 seats: 50 buyers replace a hold of one each with two of each. */
  duo: [string, string];
  /** 200 seats: buyers behind one address race here. */
  addressType: string;
  /** 10 seats, asking each attendee's name and one required question per booking. */
  askedType: string;
  questionId: string;
  /** One type of 50 seats on each of five other events: one account races across them. */
  otherEvents: TicketedEvent[];
  buyers: string[];
  /** The buyer of the replacement cases. */
  replacer: string;
  /** The buyer whose ten Proceeds race. */
  racer: string;
  /** The buyer racing across events. */
  spreader: string;
  /** Buyers behind one address. */
  household: string[];
  /** The buyer who answers the checkout's questions. */
  answerer: string;
  /** A new buyer whose hold's statements are read, and one refused. */
  newcomer: string;
  latecomer: string;
}

const serverUrl = testPostgresUrl('engine-proceed.test.ts');
let world: World;
let target: ScratchPostgres | undefined;

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_proceed');
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
        write: (transition, racer = 0) => pgWriteTransaction(pools[racer % 2]!, transition),
        read: (steps) => runAsync(steps(pools[0] as unknown as DbOrTx), pools[0]!),
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

/** Hoarding rules as a deployment sets them; the caps a case does not exercise are out of its way. */
function hoarding(clientAddress: string, limits: Partial<HoardingContext['limits']> = {}): HoardingContext {
  return {
    limits: { seatsPerAccount: 1000, seatsPerAddress: 0, holdsPerSlotPerWindow: 1000, ...limits },
    clientAddress,
    maxTicketsPerBuyer: null,
  };
}

describe.each(engines)("Proceed's replace-then-hold, written once, on %s", (engineName, open) => {
  let engine: Engine;
  const now = () => world.t.clock.now();
  const proceed = (
    userId: string,
    lines: HoldLine[],
    extra: Partial<ReserveInput> = {},
    racer = 0,
  ): Promise<ReplaceOutcome> =>
    engine.write((tx) => replaceHoldsAndReserveSteps(tx, input(userId, lines, extra), now()), racer);
  /** As the app's caller: a refusal the transaction committed with is thrown after it. */
  const proceedOrThrow = async (...args: Parameters<typeof proceed>) => {
    const outcome = await proceed(...args);
    if (!outcome.ok) throw outcome.refused;
    return outcome.hold;
  };

  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it("a buyer's second Proceed releases the first hold and takes the new seats with its seats (counted once); a refused one still releases", async () => {
    const type = world.replaceType;
    const first = await proceedOrThrow(world.replacer, [{ ticketTypeId: type, quantity: 2 }]);
    expect((await engine.read((db) => inventoryOf(db, [type])))[0]).toMatchObject({ available: 2, held: 2 });

    // 3 of 4 seats: only there with the first hold's 2 back.
    const second = await proceedOrThrow(world.replacer, [{ ticketTypeId: type, quantity: 3 }]);
    expect((await engine.read((db) => inventoryOf(db, [type])))[0]).toMatchObject({ available: 1, held: 3 });
    const afterSecond = await engine.read((db) => holdsOf(db, world.replacer));
    expect(afterSecond.filter((h) => h.status === 'active').map((h) => h.id)).toEqual([second.id]);
    expect(afterSecond.find((h) => h.id === first.id)).toMatchObject({
      status: 'released',
      releaseReason: 'replaced',
    });

    // All 4 of the first type (taken first, ids in order) and 2 of a type of 1: refused, and the hold
    // it would have replaced is released all the same; its savepoint undid only the new hold's writes,
    // the 4 seats it had taken among them.
    const third = await proceed(world.replacer, [
      { ticketTypeId: type, quantity: 4 },
      { ticketTypeId: world.lastOne, quantity: 2 },
    ]);
    expect(third.ok).toBe(false);
    expect(String(!third.ok && third.refused.message)).toMatch(/Insufficient tickets/);
    expect(await engine.read((db) => inventoryOf(db, [type, world.lastOne]))).toMatchObject([
      { available: 4, held: 0 },
      { available: 1, held: 0 },
    ]);
    const afterThird = await engine.read((db) => holdsOf(db, world.replacer));
    expect(afterThird.filter((h) => h.status === 'active')).toEqual([]);
    await expectInvariants(engine);
  });

  it("a Proceed's checkout answers are checked, then saved with the hold in its transaction", async () => {
    const lines = [{ ticketTypeId: world.askedType, quantity: 2 }];
    // The required question unanswered: refused before any hold, with its message.
    await expect(
      engine.read((db) =>
        checkCheckoutAnswersSteps(db, [{ ...lines[0]!, asks: true }], {
          names: [{ ticketTypeId: world.askedType, position: 1, name: 'Asha Rao' }],
          answers: [],
        }),
      ),
    ).rejects.toThrow(/required/i);
    const checked = await engine.read((db) =>
      checkCheckoutAnswersSteps(db, lines, {
        names: [
          { ticketTypeId: world.askedType, position: 1, name: 'Asha Rao' },
          { ticketTypeId: world.askedType, position: 2, name: 'Vikram Iyer' },
        ],
        answers: [{ questionId: world.questionId, position: 0, value: 'Vegetarian' }],
      }),
    );
    const outcome = await engine.write((tx) =>
      replaceHoldsAndReserveSteps(tx, input(world.answerer, lines, {}), now(), (hold) =>
        saveHoldAnswersSteps(tx, hold.id, checked, now()),
      ),
    );
    if (!outcome.ok) throw outcome.refused;
    const saved = await engine.read((db) => answersOfHold(db, outcome.hold.id));
    expect(saved.names).toEqual([
      { position: 1, name: 'Asha Rao' },
      { position: 2, name: 'Vikram Iyer' },
    ]);
    expect(saved.answers).toEqual([{ questionId: world.questionId, position: 0, value: 'Vegetarian' }]);

    // A hold refused after its answers were written keeps none of them (the savepoint undoes both).
    const refused = await engine.write((tx) =>
      replaceHoldsAndReserveSteps(tx, input(world.answerer, lines, {}), now(), function* (hold) {
        yield* saveHoldAnswersSteps(tx, hold.id, checked, now());
        throw conflict('the order could not be recorded');
      }),
    );
    expect(refused.ok).toBe(false);
    const left = await engine.read((db) => holdsOf(db, world.answerer));
    expect(left.map((h) => h.status)).toEqual(['released']);
    expect(await engine.read((db) => answersOfHold(db, outcome.hold.id))).toEqual(saved);
    expect((await engine.read((db) => allAnswersOf(db, world.askedType))).length).toBe(2);
  });

  it('10 Proceeds of one buyer racing on separate connections leave exactly one live hold, seats and quota counted once', async () => {
    const type = world.racingType;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        proceedOrThrow(
          world.racer,
          [{ ticketTypeId: type, quantity: 2 }],
          { hoarding: hoarding('198.51.100.10') },
          i,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const live = (await engine.read((db) => holdsOf(db, world.racer))).filter((h) => h.status === 'active');
    expect(live).toHaveLength(1);
    expect((await engine.read((db) => inventoryOf(db, [type])))[0]).toMatchObject({ available: 28, held: 2 });
    expect((await engine.read((db) => quotasOf(db, [world.quotaId])))[0]).toMatchObject({ available: 18 });
    await expectInvariants(engine);
  });

  it('50 buyers each replacing a hold on two types, named in opposite orders: no deadlock, no oversale', async () => {
    const [x, y] = world.duo;
    const one = (a: string, b: string, quantity: number) => [
      { ticketTypeId: a, quantity },
      { ticketTypeId: b, quantity },
    ];
    const buyers = world.buyers;
    // Each holds one of each first, named in one order; then all replace it at once, named the other
    // way, with two of each: exactly the 100 seats of each type.
    for (const [i, buyer] of buyers.entries()) {
      await proceedOrThrow(buyer, i % 2 === 0 ? one(x, y, 1) : one(y, x, 1));
    }
    const outcomes = await Promise.allSettled(
      buyers.map((buyer, i) => proceedOrThrow(buyer, i % 2 === 0 ? one(y, x, 2) : one(x, y, 2), {}, i)),
    );
    expect(
      outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason)),
    ).toEqual([]);
    for (const c of await engine.read((db) => inventoryOf(db, [x, y]))) {
      expect(c).toMatchObject({ available: 0, held: 100 });
    }
    // One more buyer finds both sold out.
    await expect(proceedOrThrow(world.replacer, one(x, y, 1))).rejects.toThrow(/Sold Out/);
    await expectInvariants(engine);
  });

  it('20 buyers behind one address racing: the address cap of 10 seats lets exactly 5 holds of 2 through', async () => {
    const address = '203.0.113.7';
    const outcomes = await Promise.allSettled(
      world.household.map((buyer, i) =>
        proceedOrThrow(
          buyer,
          [{ ticketTypeId: world.addressType, quantity: 2 }],
          { hoarding: hoarding(address, { seatsPerAddress: 10 }) },
          i,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(String(o.reason)).toContain(HOARDING_MESSAGES.addressCap);
    }
    const [count] = await engine.read((db) => inventoryOf(db, [world.addressType]));
    expect(count).toMatchObject({ available: 190, held: 10 });
    await expectInvariants(engine);
  });

  it('one account racing Proceeds on five events: the account cap of 4 seats lets exactly 2 holds of 2 through', async () => {
    const outcomes = await Promise.allSettled(
      world.otherEvents.map((ev, i) =>
        proceedOrThrow(
          world.spreader,
          [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 2 }],
          {
            eventId: ev.eventId,
            eventDateId: ev.dateId,
            slotId: ev.slotId,
            hoarding: hoarding('198.51.100.20', { seatsPerAccount: 4 }),
          },
          i,
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(String(o.reason)).toContain(HOARDING_MESSAGES.accountCap(4));
    }
    const live = (await engine.read((db) => holdsOf(db, world.spreader))).filter(
      (h) => h.status === 'active',
    );
    expect(live.reduce((sum, h) => sum + h.seats, 0)).toBe(4);
    await expectInvariants(engine);
  });

  it("a new buyer's hold takes its hot rows (the type's seats, its quota's) by its last statements; a refused one leaves nothing it wrote first", async () => {
    // On PostgreSQL a type's row stays locked from its UPDATE to the COMMIT, and every statement in
    // between is a round trip to a busy app (docs/benchmarks.md, the hot ticket type): the hold, its
    // items and the caller's rows (Proceed's payment order) come first.
    const lines = [
      { ticketTypeId: world.addressType, quantity: 1 },
      { ticketTypeId: world.racingType, quantity: 1 },
    ];
    const callersRow = (tx: DbOrTx) =>
      function* (hold: { id: string }) {
        const { holds } = tablesOf(tx);
        yield* changes(tx.update(holds).set({ userCity: 'Pune' }).where(eq(holds.id, hold.id)));
      };
    const log: string[] = [];
    const outcome = await engine.write((tx) =>
      recorded(replaceHoldsAndReserveSteps(tx, input(world.newcomer, lines, {}), now(), callersRow(tx)), log),
    );
    expect(outcome.ok).toBe(true);
    const firstTake = log.findIndex((sql) => sql.startsWith('update ticket_types'));
    expect(firstTake, log.join('\n')).toBeGreaterThan(0);
    // On PostgreSQL the types' quotas are read again under the lock (a quota created while the hold
    // waited for the row must be charged, engine-holds.test.ts): a statement's RETURNING would read them
    // in the snapshot taken before the wait, so it is one read more, and nothing is written before the
    // quotas' UPDATE.
    const rereads = engineName === 'PostgreSQL' ? [/^select/, /^select/] : [];
    expect(log.slice(firstTake), log.join('\n')).toEqual(
      [/^update ticket_types/, /^update ticket_types/, ...rereads, /^update quotas/].map((pattern) =>
        expect.stringMatching(pattern),
      ),
    );
    const before = log.slice(0, firstTake);
    expect(before.some((sql) => sql.startsWith('insert into holds'))).toBe(true);
    expect(before.filter((sql) => sql.startsWith('insert into hold_items'))).toHaveLength(2);
    expect(before.some((sql) => sql.startsWith('update holds set user_city'))).toBe(true);

    // Refused by a type of too few seats: the hold, its items and the caller's row, written before,
    // are undone with the other type's seats.
    const typeIds = [world.addressType, world.lastOne, world.racingType];
    const inventory = await engine.read((db) => inventoryOf(db, typeIds));
    await expect(
      engine.write((tx) =>
        replaceHoldsAndReserveSteps(
          tx,
          input(
            world.latecomer,
            [
              { ticketTypeId: world.addressType, quantity: 1 },
              { ticketTypeId: world.lastOne, quantity: 2 },
            ],
            {},
          ),
          now(),
          callersRow(tx),
        ),
      ),
    ).rejects.toThrow(/Insufficient tickets available for Last One/);
    // Refused by the caller's own check, asked once the seats are taken: undone likewise.
    await expect(
      engine.write((tx) =>
        replaceHoldsAndReserveSteps(
          tx,
          input(world.latecomer, [{ ticketTypeId: world.racingType, quantity: 1 }], {}),
          now(),
          {
            check: () => {
              throw conflict('the order could not be recorded');
            },
            write: callersRow(tx),
          },
        ),
      ),
    ).rejects.toThrow(/could not be recorded/);
    expect(await engine.read((db) => holdsOf(db, world.latecomer))).toEqual([]);
    expect(await engine.read((db) => inventoryOf(db, typeIds))).toEqual(inventory);
    await expectInvariants(engine);
  });
});

/** The transition's statements as they run, each as its SQL's start (lower case, unquoted). */
function* recorded<T>(steps: Steps<T>, log: string[]): Steps<T> {
  let next = steps.next();
  while (!next.done) {
    const statement = next.value;
    if ('query' in statement) log.push(sqlText(statement.query));
    let answer: unknown;
    try {
      answer = yield statement;
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}

/** A built or prepared Drizzle query's SQL, on either engine. */
function sqlText(query: unknown): string {
  const q = query as {
    toSQL?: () => { sql: string };
    query?: { sql: string };
    rawQueryConfig?: { text: string };
    queryConfig?: { text: string };
  };
  const text = q.toSQL?.().sql ?? q.query?.sql ?? q.rawQueryConfig?.text ?? q.queryConfig?.text ?? '?';
  return text.replaceAll('"', '').replaceAll('`', '').toLowerCase();
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

/** available + held + sold = total for every type, and available + held = capacity for the quota. */
async function expectInvariants(engine: Engine) {
  const typeIds = [
    world.replaceType,
    world.lastOne,
    world.racingType,
    ...world.duo,
    world.addressType,
    ...world.otherEvents.map((ev) => ev.ticketTypeIds[0]!),
  ];
  const counts = await engine.read((db) => inventoryOf(db, typeIds));
  for (const c of counts) {
    expect(c.available, c.ticketTypeId).toBeGreaterThanOrEqual(0);
    expect(c.available + c.held + c.sold, c.ticketTypeId).toBe(c.total);
  }
  const [quota] = await engine.read((db) => quotasOf(db, [world.quotaId]));
  const racing = counts.find((c) => c.ticketTypeId === world.racingType)!;
  expect(quota!.available + racing.held + racing.sold).toBe(quota!.capacity);
}

function* holdsOf(db: DbOrTx, userId: string) {
  const { holds } = tablesOf(db);
  return yield* rows(
    db
      .select({ id: holds.id, status: holds.status, releaseReason: holds.releaseReason, seats: holds.seats })
      .from(holds)
      .where(and(eq(holds.userId, userId))),
  );
}

function* answersOfHold(db: DbOrTx, holdId: string) {
  const { bookingAttendees, bookingAnswers } = tablesOf(db);
  const names = yield* rows(
    db
      .select({ position: bookingAttendees.position, name: bookingAttendees.name })
      .from(bookingAttendees)
      .where(eq(bookingAttendees.holdId, holdId))
      .orderBy(bookingAttendees.position),
  );
  const answers = yield* rows(
    db
      .select({
        questionId: bookingAnswers.questionId,
        position: bookingAnswers.position,
        value: bookingAnswers.value,
      })
      .from(bookingAnswers)
      .where(eq(bookingAnswers.holdId, holdId)),
  );
  return { names, answers };
}

/** Every attendee name kept for a type, whatever its hold. */
function* allAnswersOf(db: DbOrTx, typeId: string) {
  const { bookingAttendees } = tablesOf(db);
  return yield* rows(
    db
      .select({ holdId: bookingAttendees.holdId })
      .from(bookingAttendees)
      .where(eq(bookingAttendees.ticketTypeId, typeId)),
  );
}

/** A SQLite installation made by the app's own helpers: the event, its types and quota, five more events. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp();
  await appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const ev = createTicketedEvent(t.deps.db, {
    name: 'NH7 Weekender',
    types: [
      { name: 'Replace', pricePaise: 50_000, totalTickets: 4 },
      { name: 'Racing', pricePaise: 60_000, totalTickets: 30 },
      { name: 'Day One', pricePaise: 40_000, totalTickets: 100 },
      { name: 'Day Two', pricePaise: 40_000, totalTickets: 100 },
      { name: 'Household', pricePaise: 30_000, totalTickets: 200 },
      { name: 'Last One', pricePaise: 90_000, totalTickets: 1 },
      { name: 'Asked', pricePaise: 70_000, totalTickets: 10 },
    ],
    platformFeeRate: 10,
  });
  const [replaceType, racingType, dayOne, dayTwo, addressType, lastOne, askedType] = ev.ticketTypeIds as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const otherEvents = Array.from({ length: 5 }, (_, i) =>
    createTicketedEvent(t.deps.db, {
      name: `Ziro Festival night ${i + 1}`,
      types: [{ name: 'Entry', pricePaise: 20_000, totalTickets: 50 }],
      platformFeeRate: 10,
    }),
  );
  const { db } = t.deps;
  const at = t.clock.now().toISOString();
  const quotaId = `${ev.eventId}-q-racing`;
  db.insert(quotas)
    .values({
      id: quotaId,
      eventId: ev.eventId,
      name: 'Racing',
      capacity: 20,
      available: 20,
      createdAt: at,
      updatedAt: at,
    })
    .run();
  db.insert(quotaTicketTypes).values({ ticketTypeId: racingType, quotaId }).run();
  db.insert(attendeeNameSettings).values({ ticketTypeId: askedType, mode: 'required' }).run();
  const questionId = `${ev.eventId}-q-diet`;
  db.insert(ticketQuestions)
    .values({
      id: questionId,
      eventId: ev.eventId,
      ticketTypeId: askedType,
      label: 'Dietary preference',
      kind: 'text',
      options: [],
      required: true,
      scope: 'booking',
      createdAt: at,
      updatedAt: at,
    })
    .run();
  const account = () => createAccount(t).userId;
  return {
    t,
    ev,
    replaceType,
    lastOne,
    racingType,
    quotaId,
    duo: [dayOne, dayTwo],
    addressType,
    askedType,
    questionId,
    otherEvents,
    buyers: Array.from({ length: BUYERS }, account),
    replacer: account(),
    racer: account(),
    spreader: account(),
    household: Array.from({ length: 20 }, account),
    answerer: account(),
    newcomer: account(),
    latecomer: account(),
  };
}
