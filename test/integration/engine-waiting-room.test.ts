import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, DbOrTx } from '../../src-server/db/client.ts';
import { openDatabase } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { isPostgres } from '../../src-server/db/engine/reads.ts';
import { postgresRunner, sqliteRunner, type TransitionRunner } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import {
  admitDueVisitors,
  admitDueVisitorsOn,
  admitSteps,
} from '../../src-server/services/waiting-room/admit-visitors.ts';
import {
  checkWaitingRoomStatus,
  checkWaitingRoomStatusOnPostgres,
} from '../../src-server/services/waiting-room/check-status.ts';
import { drawSteps } from '../../src-server/services/waiting-room/draw.ts';
import { joinWaitingRoomOn } from '../../src-server/services/waiting-room/join-waiting-room.ts';
import { admissionStateSteps } from '../../src-server/services/waiting-room/require-admitted-account.ts';
import { verifyQueueToken } from '../../src-server/services/waiting-room/tokens.ts';
import { waitingRoomSettingsSteps } from '../../src-server/services/waiting-room/waiting-room-settings.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, enginesFor } from '../helpers/test-app.ts';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/test-postgres.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

// Issue 38, ADR 0045: the waiting room's transitions (the draw at opening, a join, admission at the
// room's rate) are written once and proved here on both engines by the same cases, including two
// "servers" (two connections on SQLite, two pools on PostgreSQL) running admission at the same moment.
// The room's whole state is in the database, so whichever server a visitor's request reaches agrees.

interface Engine {
  /** Two servers on one database. */
  servers: [TransitionRunner, TransitionRunner];
  db: DbOrTx;
  close: () => Promise<void>;
}

const SECRET = 'engine-waiting-room-test-secret-0123456789';
const serverUrl = testPostgresUrl('engine-waiting-room.test.ts');
const engines: [string, () => Promise<Engine>][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-waiting-room-'));
      const file = path.join(dir, 'jalsa.db');
      const one = openDatabase(file);
      const two = openDatabase(file);
      return {
        servers: [sqliteRunner(one.db), sqliteRunner(two.db)],
        db: one.db,
        close: async () => {
          one.close();
          two.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const fresh = await freshPostgresDatabase(serverUrl, { poolSize: 10 });
      const other = await openPostgres(fresh.url, { poolSize: 10 });
      return {
        servers: [postgresRunner(fresh.db), postgresRunner(other)],
        db: fresh.db as unknown as DbOrTx,
        close: async () => {
          await other.$client.end();
          await fresh.drop();
        },
      };
    },
  ]);
}

const OPENS = new Date('2026-12-01T10:30:00.000Z');
const at = (ms: number) => new Date(OPENS.getTime() + ms);
let rooms = 0;

describe.each(engines)('the waiting room, written once, on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  /**
   * An event with its room on, opening at OPENS, and `accounts` accounts that may join it. The earlier
   * cases' rooms are switched off, so a tick's count is this room's.
   */
  async function roomWith(accounts: number, admitPerMinute: number) {
    rooms += 1;
    const { events, users, waitingRooms } = tablesOf(engine.db);
    await engine.db.update(waitingRooms).set({ enabled: false });
    const eventId = `evt-room-${rooms}`;
    const created = at(-86_400_000).toISOString();
    await engine.db.insert(events).values({
      id: eventId,
      name: `Room ${rooms}`,
      category: 'concerts',
      city: 'Mumbai',
      startTime: at(86_400_000).toISOString(),
      createdAt: created,
    });
    const userIds = Array.from({ length: accounts }, (_, i) => `u-${rooms}-${i}`);
    await engine.db
      .insert(users)
      .values(
        userIds.map((id) => ({ id, email: `${id}@example.com`, createdAt: created, updatedAt: created })),
      );
    await engine.db.insert(waitingRooms).values({
      eventId,
      enabled: true,
      opensAt: OPENS.toISOString(),
      admitPerMinute,
      updatedAt: created,
    });
    return { eventId, userIds };
  }

  const join = (server: TransitionRunner, userId: string, eventId: string, now: Date) =>
    joinWaitingRoomOn(server, SECRET, userId, eventId, now);

  /** Visitors in arrival order: account, place, admitted. */
  async function visitors(eventId: string) {
    const { waitingRoomVisitors: v } = tablesOf(engine.db);
    return engine.db
      .select({ userId: v.userId, position: v.position, admittedAt: v.admittedAt })
      .from(v)
      .where(eq(v.eventId, eventId))
      .orderBy(asc(v.id));
  }

  async function admittedThrough(eventId: string): Promise<number> {
    const { waitingRooms } = tablesOf(engine.db);
    const [room] = await engine.db
      .select({ through: waitingRooms.admittedThrough })
      .from(waitingRooms)
      .where(eq(waitingRooms.eventId, eventId));
    return room!.through;
  }

  it('the draw at opening: everyone who joined before it gets one place, 1 to n, in a random order, and it happens once', async () => {
    const { eventId, userIds } = await roomWith(40, 60);
    const [a, b] = engine.servers;
    for (const [i, userId] of userIds.entries()) await join(i % 2 ? a : b, userId, eventId, at(-60_000 + i));
    expect((await visitors(eventId)).every((v) => v.position === null)).toBe(true);

    // Both servers reach the opening instant together, each several times.
    const drew = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).write((tx) => drawSteps(tx, eventId, OPENS))),
    );
    expect(drew.filter(Boolean)).toHaveLength(1);
    const places = (await visitors(eventId)).map((v) => v.position);
    expect([...places].sort((x, y) => x! - y!)).toEqual(userIds.map((_, i) => i + 1));
    // Not arrival order (one chance in 40! of a fair shuffle giving it).
    expect(places).not.toEqual(userIds.map((_, i) => i + 1));
  });

  it('a draw of 2,500 arrivals gives each one place (PostgreSQL places a thousand per statement)', async () => {
    const { eventId, userIds } = await roomWith(2_500, 60);
    const { waitingRoomVisitors } = tablesOf(engine.db);
    const arrived = at(-60_000).toISOString();
    for (let start = 0; start < userIds.length; start += 500) {
      await engine.db
        .insert(waitingRoomVisitors)
        .values(userIds.slice(start, start + 500).map((userId) => ({ eventId, userId, arrivedAt: arrived })));
    }
    expect(await engine.servers[0].write((tx) => drawSteps(tx, eventId, OPENS))).toBe(true);
    const places = (await visitors(eventId)).map((v) => v.position!);
    expect([...places].sort((x, y) => x - y)).toEqual(userIds.map((_, i) => i + 1));
  });

  it("the room's time, changed on one server as another's admission tick draws it, stays the time it was drawn at", async () => {
    const { waitingRooms } = tablesOf(engine.db);
    const [a, b] = engine.servers;
    const later = at(3_600_000).toISOString();
    const eventIds = [];
    for (let i = 0; i < 12; i++) {
      const { eventId, userIds } = await roomWith(3, 60);
      for (const userId of userIds) await join(a, userId, eventId, at(-60_000));
      eventIds.push(eventId);
    }
    await engine.db.update(waitingRooms).set({ enabled: true });
    await Promise.all(
      eventIds.flatMap((eventId) => [
        a.write((tx) =>
          waitingRoomSettingsSteps(
            tx,
            eventId,
            { enabled: true, opensAt: later, admitPerMinute: 60 },
            at(-1),
          ),
        ),
        b.write((tx) => admitSteps(tx, eventId, OPENS)),
      ]),
    );
    for (const eventId of eventIds) {
      const [room] = await engine.db
        .select({ opensAt: waitingRooms.opensAt, drawnAt: waitingRooms.drawnAt })
        .from(waitingRooms)
        .where(eq(waitingRooms.eventId, eventId));
      // Either the draw came first and the time stayed, or the move came first and nothing was drawn.
      if (room!.drawnAt) expect(room!.opensAt).toBe(OPENS.toISOString());
      else expect(room!.opensAt).toBe(later);
    }
    await engine.db.update(waitingRooms).set({ enabled: false });
  });

  it('admits in place order at the configured rate; late joiners queue behind the drawn, in arrival order', async () => {
    const { eventId, userIds } = await roomWith(25, 600); // ten a second
    const [a, b] = engine.servers;
    const early = userIds.slice(0, 20);
    const late = userIds.slice(20);
    for (const userId of early) await join(a, userId, eventId, at(-1_000));
    expect(await admitDueVisitorsOn(a, at(0))).toBe(0); // drawn, nobody due yet
    for (const [i, userId] of late.entries()) await join(b, userId, eventId, at(50 + i));
    const placeOf = new Map((await visitors(eventId)).map((v) => [v.userId, v.position]));
    expect(late.map((u) => placeOf.get(u))).toEqual([21, 22, 23, 24, 25]);

    const admittedPerSecond: number[] = [];
    for (let second = 1; second <= 3; second++) {
      admittedPerSecond.push(await admitDueVisitorsOn(second % 2 ? a : b, at(second * 1_000)));
      const through = await admittedThrough(eventId);
      const rows = await visitors(eventId);
      // Exactly the first `through` places are admitted, nobody behind them.
      expect(
        rows
          .filter((v) => v.admittedAt !== null)
          .map((v) => v.position!)
          .sort((x, y) => x - y),
      ).toEqual(Array.from({ length: through }, (_, i) => i + 1));
    }
    expect(admittedPerSecond).toEqual([10, 10, 5]);
    const admittedAt = new Map((await visitors(eventId)).map((v) => [v.userId, v.admittedAt]));
    // Every late joiner was admitted after every early one.
    expect(late.every((u) => admittedAt.get(u) === at(3_000).toISOString())).toBe(true);
  });

  it("an admitted visitor's queue token is accepted; one still waiting is not", async () => {
    const { eventId, userIds } = await roomWith(3, 60); // one a second
    const [a] = engine.servers;
    const tokens = [];
    for (const userId of userIds) tokens.push((await join(a, userId, eventId, at(-5_000))).token);
    await admitDueVisitorsOn(a, at(1_000));
    const states = [];
    for (const token of tokens) {
      const visitor = verifyQueueToken(SECRET, token, eventId);
      expect(visitor).not.toBeNull();
      states.push(await a.read((db) => admissionStateSteps(db, eventId, visitor!.userId, at(1_000))));
    }
    expect(states.filter((s) => s === 'admitted')).toHaveLength(1);
    expect(states.filter((s) => s === 'not-admitted')).toHaveLength(2);
    expect(verifyQueueToken('another-secret-0123456789abcdefghijkl', tokens[0]!, eventId)).toBeNull();
  });

  it("a visitor's status check answers alike: the admitted one has a pass, the others their place and who is ahead", async () => {
    const { eventId, userIds } = await roomWith(3, 60); // one a second
    const [a] = engine.servers;
    const tokens = [];
    for (const userId of userIds) tokens.push((await join(a, userId, eventId, at(-5_000))).token);
    await admitDueVisitorsOn(a, at(1_000));
    const check = (token: string | undefined) => statusCheck(engine.db, eventId, token, at(1_000));
    const statuses = await Promise.all(tokens.map(check));
    expect(statuses.every((s) => s.enabled && s.open && !s.soldOut)).toBe(true);
    const admitted = statuses.filter((s) => s.visitor?.admitted);
    expect(admitted).toHaveLength(1);
    expect(admitted[0]!.visitor).toMatchObject({ position: 1, ahead: 0 });
    expect(admitted[0]!.visitor!.pass).toEqual(expect.any(String));
    const waiting = statuses.filter((s) => !s.visitor?.admitted).map((s) => s.visitor);
    expect(waiting.map((v) => [v!.position, v!.ahead, v!.pass]).sort()).toEqual([
      [2, 0, null],
      [3, 1, null],
    ]);
    // Without a token (not joined): the room's public state only.
    expect((await check(undefined)).visitor).toBeUndefined();
  });

  it('two servers admitting at the same moments, with joins racing them, never admit more than the rate allows nor anyone twice', async () => {
    const { eventId, userIds } = await roomWith(120, 600); // ten a second, one every 100 ms
    const [a, b] = engine.servers;
    const early = userIds.slice(0, 80);
    const late = userIds.slice(80);
    for (const userId of early) await join(a, userId, eventId, at(-1_000));
    let reported = 0;
    let latest = 0;
    for (let second = 0; second <= 6; second++) {
      // Each server ticks four times around the same second, their clocks up to 300 ms apart.
      const ticks = Array.from({ length: 8 }, (_, i) => second * 1_000 + (i % 4) * 100);
      latest = Math.max(latest, ...ticks);
      const joining = late.splice(0, 8);
      const results = await Promise.all([
        ...ticks.map((ms, i) => admitDueVisitorsOn(i % 2 ? a : b, at(ms))),
        ...joining.map((userId, i) => join(i % 2 ? b : a, userId, eventId, at(second * 1_000 + i))),
      ]);
      reported += results.slice(0, ticks.length).reduce<number>((sum, n) => sum + (n as number), 0);
      const through = await admittedThrough(eventId);
      // Never ahead of the rate: one place per 100 ms since opening, by the latest clock that ticked.
      expect(through).toBeLessThanOrEqual(Math.floor(latest / 100));
      // Each place admitted once: what the ticks said they admitted is what the room admitted.
      expect(reported).toBe(through);
    }
    const rows = await visitors(eventId);
    const places = rows.map((v) => v.position!);
    expect(new Set(places).size).toBe(rows.length); // no place given twice
    expect([...places].sort((x, y) => x - y)).toEqual(rows.map((_, i) => i + 1));
    const { waitingRoomVisitors: v } = tablesOf(engine.db);
    const [marked] = await engine.db
      .select({ n: count() })
      .from(v)
      .where(and(eq(v.eventId, eventId), isNotNull(v.admittedAt)));
    expect(Number(marked!.n)).toBe(await admittedThrough(eventId));
    expect(await admittedThrough(eventId)).toBeGreaterThanOrEqual(60);
  });
});

/** The waiting page's status check on the engine of `db`, as the route asks it (http/waiting-room.ts). */
async function statusCheck(db: DbOrTx, eventId: string, token: string | undefined, now: Date) {
  const deps = { appSecret: SECRET, now, random: () => 0.5 };
  return isPostgres(db)
    ? checkWaitingRoomStatusOnPostgres({ ...deps, pool: (db as unknown as PgDb).$client }, eventId, token)
    : checkWaitingRoomStatus({ ...deps, sqlite: (db as Db).$client }, eventId, token);
}

// The app's own entry points on the app's engine: the route a buyer joins through and the admitter job
// took SQLite's runner whatever the engine, so on PostgreSQL the join answered 500 and every admission
// tick failed (found converting waitlist.test.ts to both engines).
describe.each(enginesFor('engine-waiting-room.test.ts'))(
  "the room's route and admitter job in the app on %s",
  (engine) => {
    it('a buyer joins through waitingRoom.join and the admitter admits them at opening', async () => {
      const t = await createTestAppOn(engine);
      try {
        const ev = await createTicketedEventOn(t.deps.db);
        const buyer = await signedInUser(t);
        const opensAt = new Date(t.clock.now().getTime() + 60_000);
        const { waitingRooms } = tablesOf(t.deps.db);
        await t.deps.db.insert(waitingRooms).values({
          eventId: ev.eventId,
          enabled: true,
          opensAt: opensAt.toISOString(),
          admitPerMinute: 60,
          updatedAt: t.clock.now().toISOString(),
        });
        const joined = await callProcedure(
          t,
          'mutation',
          'waitingRoom.join',
          { eventId: ev.eventId },
          { cookie: buyer.cookie },
        );
        expect(joined.status, JSON.stringify(joined.body)).toBe(200);
        const { token } = joined.data as { token: string };
        expect(verifyQueueToken(t.deps.appSecret, token, ev.eventId)).not.toBeNull();
        // At opening the room draws; a second later the admitter lets the one visitor in.
        t.clock.set(opensAt);
        await admitDueVisitors(t.deps);
        t.clock.advance(1_001);
        expect(await admitDueVisitors(t.deps)).toBe(1);
        const { waitingRoomVisitors } = tablesOf(t.deps.db);
        const [visitor] = await t.deps.db
          .select()
          .from(waitingRoomVisitors)
          .where(eq(waitingRoomVisitors.userId, buyer.userId));
        expect(visitor).toMatchObject({ position: 1, admittedAt: expect.any(String) });
      } finally {
        await t.close();
      }
    });
  },
);
