import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { DEFAULT_ADMIT_PER_MINUTE, QUEUE_TOKEN_HEADER } from '../shared/waiting-room.ts';
import { appSecretFile } from '../src-server/app-secret.ts';
import { databaseFile, openDatabase } from '../src-server/db/client.ts';
import type { Clock } from '../src-server/deps.ts';
import { admitDueVisitors } from '../src-server/services/waiting-room/admit-visitors.ts';
import {
  checkIntervalFor,
  FAR_CHECK_MS,
  openingSpreadMs,
} from '../src-server/services/waiting-room/check-status.ts';
import { joinWaitingRoom } from '../src-server/services/waiting-room/join-waiting-room.ts';
import { signQueueToken } from '../src-server/services/waiting-room/tokens.ts';
import { type BenchEvent, createBuyers, createOnSaleEvent, startBody } from './lib/fixtures.ts';
import { BROWSER_ACCEPT_ENCODING } from './lib/http.ts';
import { measure, processCpuMicros, report } from './lib/load.ts';
import { startBenchServer } from './lib/server.ts';

export interface WaitingRoomBenchArgs {
  /** Visitor rows written into the room (the status check reads one by primary key). */
  visitors: number;
  connections: number;
  durationSeconds: number;
  /** Draws repeated in the fairness simulation. */
  draws: number;
}

/**
 * Issue 19: the cost of the waiting room's status check through the whole stack (one server process,
 * real HTTP), what that makes 100,000 and 1,000,000 waiting visitors cost at the back-off schedule,
 * Proceed's throughput alone and while status checks run, and a fairness simulation.
 */
export async function runWaitingRoomBenchmark(args: WaitingRoomBenchArgs) {
  const http = await measureHttp(args);
  const loads = [100_000, 1_000_000].map((n) => loadOf(n, DEFAULT_ADMIT_PER_MINUTE, http.statusUs));
  report(
    `Load of waiting visitors at ${DEFAULT_ADMIT_PER_MINUTE} admitted a minute (the default), from ${http.statusUs} µs CPU per check`,
    loads.map((l) => ({
      visitors: l.visitors.toLocaleString('en-IN'),
      'checks/s while waiting': l.steadyPerSecond,
      'cores while waiting': l.steadyCores,
      'opening spread s': l.spreadSeconds,
      'checks/s in the opening spread': l.openingPerSecond,
      'cores in the opening spread': l.openingCores,
    })),
    { loads },
  );
  const fairness = await simulateFairness(args.draws);
  report(
    `Fairness: ${args.draws} draws, each with 100 bots (arrive 10–5 min early, refresh every second), 400 early humans (arrive once in the last 5 min), 200 humans over the first minute`,
    [fairness.row],
    fairness.row,
  );
}

async function measureHttp(args: WaitingRoomBenchArgs) {
  const server = await startBenchServer();
  const database = openDatabase(databaseFile(server.dataDir));
  try {
    const secret = readFileSync(appSecretFile(server.dataDir), 'utf8').trim();
    const room = createOnSaleEvent(database.db, 'Waiting Room Night', [
      { name: 'General', seats: 1_000_000 },
    ]);
    const shop = createOnSaleEvent(database.db, 'Plain Night', [{ name: 'General', seats: 10_000_000 }]);
    const tokens = writeVisitors(database.sqlite, room, args.visitors, secret);
    const buyers = createBuyers(database.db, 2_000, 'proceed');
    const options = { connections: args.connections, serverPid: server.child.pid };
    const statusUrl = `${server.baseURL}/api/waiting-room/${room.eventId}`;
    const statusRequests = cyclingHeader(tokens);
    await measure('status (warm-up)', statusUrl, { ...options, ...statusRequests, durationSeconds: 2 });
    const status = await measure('status check (queue token)', statusUrl, {
      ...options,
      ...statusRequests,
      durationSeconds: args.durationSeconds,
    });
    const healthz = await measure('GET /healthz (for scale)', `${server.baseURL}/healthz`, {
      ...options,
      headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      durationSeconds: args.durationSeconds,
    });
    const anonymous = await measure('status check (no token)', statusUrl, {
      ...options,
      headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      durationSeconds: args.durationSeconds,
    });
    const proceedOptions = { ...options, ...proceedRequests(shop, buyers) };
    const proceedUrl = `${server.baseURL}/trpc/payments.start`;
    await measure('Proceed (warm-up)', proceedUrl, { ...proceedOptions, durationSeconds: 2 });
    const proceedAlone = await measure('Proceed alone', proceedUrl, {
      ...proceedOptions,
      durationSeconds: args.durationSeconds,
    });
    // Status checks at a fixed rate beside Proceed: what a million waiting visitors ask (≈ 8,000/s at the
    // back-off), scaled to this machine's one server core: 1,000 a second.
    const backgroundRate = 1_000;
    const cpuBefore = processCpuMicros(server.child.pid!);
    const [proceedBeside, background] = await Promise.all([
      measure(`Proceed beside ${backgroundRate} status checks/s`, proceedUrl, {
        ...proceedOptions,
        durationSeconds: args.durationSeconds,
      }),
      autocannon({
        url: statusUrl,
        connections: 16,
        duration: args.durationSeconds,
        overallRate: backgroundRate,
        requests: [{ setupRequest: statusRequests.setupRequest }],
      }),
    ]);
    const cpuBeside = processCpuMicros(server.child.pid!) - cpuBefore;
    const statusUs = status.serverCpuMicrosPerRequest ?? Number.NaN;
    report(
      `Waiting-room status checks and Proceed: one server process, ${args.connections} connections, ${args.durationSeconds} s each; ${args.visitors.toLocaleString('en-IN')} visitors in the room`,
      [status, anonymous, healthz, proceedAlone, proceedBeside].map((r) => ({
        scenario: r.name,
        'req/s': r.requestsPerSecond,
        'CPU µs/req': r.serverCpuMicrosPerRequest ?? '',
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        non2xx: r.non2xx,
        errors: r.errors,
      })),
      {
        statusUs,
        statusPerSecond: status.requestsPerSecond,
        anonymousUs: anonymous.serverCpuMicrosPerRequest,
        healthzUs: healthz.serverCpuMicrosPerRequest,
        proceedAlonePerSecond: proceedAlone.requestsPerSecond,
        proceedBesidePerSecond: proceedBeside.requestsPerSecond,
        backgroundStatusPerSecond: Math.round(background.requests.average),
        backgroundNon2xx: background.non2xx,
        serverCoresBeside: Math.round((cpuBeside / (args.durationSeconds * 1e6)) * 100) / 100,
      },
    );
    return { statusUs };
  } finally {
    database.close();
    await server.stop();
  }
}

/**
 * `count` visitors in an open, drawn room with nobody admitted yet (a user row each, as the foreign key
 * wants), and queue tokens for every one of them.
 */
function writeVisitors(
  sqlite: import('better-sqlite3').Database,
  event: BenchEvent,
  count: number,
  secret: string,
): string[] {
  const now = new Date();
  const opened = new Date(now.getTime() - 1_000).toISOString();
  const tokens: string[] = [];
  sqlite.transaction(() => {
    sqlite
      .prepare(
        `insert into waiting_rooms (event_id, enabled, opens_at, admit_per_minute, drawn_at, admitted_through, updated_at)
         values (?, 1, ?, 1, ?, 0, ?)`,
      )
      .run(event.eventId, opened, opened, opened);
    const user = sqlite.prepare(
      `insert into users (id, email, name, is_email_verified, created_at, updated_at) values (?, ?, 'Visitor', 1, ?, ?)`,
    );
    const visitor = sqlite.prepare(
      'insert into waiting_room_visitors (event_id, user_id, arrived_at, position) values (?, ?, ?, ?)',
    );
    for (let i = 0; i < count; i += 1) {
      const userId = `visitor-${i}`;
      user.run(userId, `visitor-${i}@bench.local`, opened, opened);
      const id = Number(visitor.run(event.eventId, userId, opened, i + 1).lastInsertRowid);
      tokens.push(signQueueToken(secret, { eventId: event.eventId, visitorId: id, userId }));
    }
  })();
  return tokens;
}

function cyclingHeader(tokens: string[]) {
  let next = 0;
  return {
    headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    setupRequest: (request: autocannon.Request) => ({
      ...request,
      headers: { ...request.headers, [QUEUE_TOKEN_HEADER]: tokens[next++ % tokens.length]! },
    }),
  };
}

function proceedRequests(event: BenchEvent, cookies: string[]) {
  let next = 0;
  return {
    method: 'POST' as const,
    body: startBody(event, event.ticketTypes[0]!.id),
    headers: { 'content-type': 'application/json', 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    setupRequest: (request: autocannon.Request) => ({
      ...request,
      headers: { ...request.headers, cookie: cookies[next++ % cookies.length]! },
    }),
  };
}

/**
 * Status checks a second from `visitors` waiting in an open room at `perMinute` admitted a minute, at
 * the back-off schedule (check-status.ts; jitter averages out): the visitor with `a` people ahead asks
 * every `checkIntervalFor((a + 1) × 60 000 / perMinute)` ms. The queue only shrinks from there, so
 * this is the most the waiting costs. The opening spread is the first check after opening, spread
 * evenly over `openingSpreadMs`.
 */
export function loadOf(visitors: number, perMinute: number, microsPerCheck: number) {
  let perSecond = 0;
  for (let ahead = 0; ahead < visitors; ahead += 1) {
    perSecond += 1_000 / checkIntervalFor(((ahead + 1) * 60_000) / perMinute);
  }
  const spreadMs = openingSpreadMs(visitors);
  const openingPerSecond = visitors / (spreadMs / 1_000);
  const cores = (checks: number) => Math.round(((checks * microsPerCheck) / 1e6) * 1000) / 1000;
  return {
    visitors,
    steadyPerSecond: Math.round(perSecond),
    steadyCores: cores(perSecond),
    spreadSeconds: spreadMs / 1_000,
    openingPerSecond: Math.round(openingPerSecond),
    openingCores: cores(openingPerSecond),
    farCheckSeconds: FAR_CHECK_MS / 1_000,
  };
}

/**
 * The real join, draw and admitter on a scratch database with a moved clock. Bots arrive earliest and
 * "refresh" every second until opening (each refresh a join, which finds their place); early humans
 * arrive once before opening; late humans arrive over the first minute. Over `draws` rooms: the bots'
 * mean place among the pre-opening crowd (a uniform shuffle gives (n + 1) / 2), a chi-square of their
 * places over 10 equal bands (9 degrees of freedom: 21.7 is the 1 % critical value), and whether
 * every late human's place, and admission, follows arrival order.
 */
async function simulateFairness(draws: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-fairness-'));
  const database = openDatabase(path.join(dir, 'jalsa.db'));
  try {
    let now = Date.parse('2026-12-01T10:00:00.000Z');
    const clock: Clock = {
      now: () => new Date(now),
      sleep: async (ms) => {
        now += ms;
      },
    };
    const deps = { db: database.db, clock, appSecret: 'fairness-simulation' };
    const BOTS = 100;
    const EARLY = 400;
    const LATE = 200;
    const users = database.sqlite.prepare(
      `insert into users (id, email, name, is_email_verified, created_at, updated_at) values (?, ?, 'Sim', 1, ?, ?)`,
    );
    const stamp = new Date(now).toISOString();
    database.sqlite.transaction(() => {
      for (let i = 0; i < BOTS + EARLY + LATE; i += 1)
        users.run(`sim-${i}`, `sim-${i}@sim.local`, stamp, stamp);
    })();
    const bands = Array.from({ length: 10 }, () => 0);
    let botPlaceSum = 0;
    let lateInOrder = 0;
    let admittedInOrder = 0;
    let refreshes = 0;
    for (let d = 0; d < draws; d += 1) {
      const event = createOnSaleEvent(database.db, `Fair ${d}`, [{ name: 'General', seats: 100 }]);
      const opensAt = now + 10 * 60_000;
      database.sqlite
        .prepare(
          `insert into waiting_rooms (event_id, enabled, opens_at, admit_per_minute, updated_at) values (?, 1, ?, 600, ?)`,
        )
        .run(event.eventId, new Date(opensAt).toISOString(), new Date(now).toISOString());
      // Bots: all arrive in the first five minutes, then refresh every second until opening.
      for (let i = 0; i < BOTS; i += 1) await joinWaitingRoom(deps, `sim-${i}`, event.eventId);
      for (let s = 0; s < 5; s += 1) {
        now += 1_000;
        for (let i = 0; i < BOTS; i += 1) {
          await joinWaitingRoom(deps, `sim-${i}`, event.eventId);
          refreshes += 1;
        }
      }
      now = opensAt - 5 * 60_000;
      for (let i = 0; i < EARLY; i += 1) {
        now += 600;
        await joinWaitingRoom(deps, `sim-${BOTS + i}`, event.eventId);
      }
      now = opensAt;
      await admitDueVisitors(deps);
      for (let i = 0; i < LATE; i += 1) {
        now += 300;
        await joinWaitingRoom(deps, `sim-${BOTS + EARLY + i}`, event.eventId);
        await admitDueVisitors(deps);
      }
      now += 10 * 60_000;
      await admitDueVisitors(deps);
      const rows = database.sqlite
        .prepare(
          `select user_id as userId, id, position, admitted_at as admittedAt from waiting_room_visitors
           where event_id = ? order by id`,
        )
        .all(event.eventId) as { userId: string; id: number; position: number; admittedAt: string }[];
      const crowd = BOTS + EARLY;
      for (const row of rows.slice(0, BOTS)) {
        botPlaceSum += row.position;
        bands[Math.min(9, Math.floor(((row.position - 1) / crowd) * 10))]! += 1;
      }
      const late = rows.slice(crowd);
      if (late.every((r, i) => r.position === crowd + i + 1)) lateInOrder += 1;
      const byPlace = [...rows].sort((a, b) => a.position - b.position);
      if (byPlace.every((r, i) => i === 0 || r.admittedAt >= byPlace[i - 1]!.admittedAt))
        admittedInOrder += 1;
      now += 60 * 60_000;
    }
    const expected = (BOTS * draws) / 10;
    const chi = bands.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    const crowd = BOTS + EARLY;
    return {
      row: {
        draws,
        'bot refreshes': refreshes,
        'bots’ mean place': Math.round((botPlaceSum / (BOTS * draws)) * 10) / 10,
        'uniform mean': (crowd + 1) / 2,
        'chi-square (10 bands, 9 df; 1 % critical 21.7)': Math.round(chi * 10) / 10,
        'rooms with late arrivals in arrival order': `${lateInOrder} / ${draws}`,
        'rooms admitted in place order': `${admittedInOrder} / ${draws}`,
      },
    };
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
