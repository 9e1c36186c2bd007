import { databaseFile, openDatabase } from '../src-server/db/client.ts';
import { timeOrderedUuid } from '../src-server/db/time-ordered-id.ts';
import { type BenchEvent, createBuyers, createOnSaleEvent, inventoryOf, startBody } from './lib/fixtures.ts';
import { BROWSER_ACCEPT_ENCODING } from './lib/http.ts';
import { type LoadResult, measure, report } from './lib/load.ts';
import { startBenchServer } from './lib/server.ts';

export interface HotPathsArgs {
  /** Buyers per Proceed group (fresh, with history); each Proceeds about requests ÷ buyers times. */
  buyers: number;
  /** Past holds written for each buyer of the history group. */
  pastHolds: number;
  connections: number;
  /** Seconds measured per scenario, after its warm-up. */
  durationSeconds: number;
  /**
   * Scenarios to run (bare, bareHeaders, healthz, meSignedOut, me, fresh, history); all when empty. For a CPU profile of one
   * request kind: `BENCH_CPU_PROF=dir npm run bench -- hot-paths --only me`.
   */
  only?: string[];
}

type Scenario = 'bare' | 'bareHeaders' | 'healthz' | 'meSignedOut' | 'me' | 'fresh' | 'history';

/**
 * The requests every page load and every Proceed take (issue 21), in one run and one server process,
 * as server CPU µs per request (process CPU time over the measured window, after a warm-up):
 * a bare Hono route, `/healthz`, a signed-in `auth.me`, Proceed by buyers without past holds and
 * Proceed by buyers with `pastHolds` past holds each (expired, released and paid, written straight
 * into the database, on the same slot: the worst case for any lookup of the buyer's active hold).
 * Both Proceed groups cycle through the same number of buyers, so after each buyer's first Proceed
 * both replace an active hold (release + reserve) and differ only by their history.
 */
export async function runHotPaths(args: HotPathsArgs) {
  const server = await startBenchServer();
  const database = openDatabase(databaseFile(server.dataDir));
  try {
    const event = createOnSaleEvent(database.db, 'Hot Paths Night', [{ name: 'General', seats: 10_000_000 }]);
    const freshCookies = createBuyers(database.db, args.buyers, 'fresh');
    const historyCookies = createBuyers(database.db, args.buyers, 'history');
    const pastHolds =
      !args.only?.length || args.only.includes('history')
        ? writePastHolds(database.sqlite, event, args.pastHolds)
        : 0;
    const meCookies = freshCookies;

    const options = { connections: args.connections, serverPid: server.child.pid };
    const wanted = (scenario: Scenario) => !args.only?.length || args.only.includes(scenario);
    const skipped = (name: string): LoadResult =>
      ({ name, serverCpuMicrosPerRequest: Number.NaN }) as LoadResult;
    const run = async (
      scenario: Scenario,
      name: string,
      path: string,
      extra: Parameters<typeof measure>[2] = {},
    ) => {
      if (!wanted(scenario)) return skipped(name);
      await measure(`${name} (warm-up)`, `${server.baseURL}${path}`, {
        ...options,
        ...extra,
        durationSeconds: 2,
      });
      return measure(name, `${server.baseURL}${path}`, {
        ...options,
        ...extra,
        durationSeconds: args.durationSeconds,
      });
    };
    const browser = { 'accept-encoding': BROWSER_ACCEPT_ENCODING };
    const bare = await run('bare', 'bare Hono JSON', '/__bench/bare', { headers: browser });
    // Two floors, measured to say what part of a goal is the app's to win (docs/benchmarks.md): the bare
    // route sending /healthz's own headers (the security headers every answer carries), and auth.me with
    // no session (tRPC and the app's middleware, with no read of its own).
    const bareHeaders = await run(
      'bareHeaders',
      "bare Hono with /healthz's headers",
      '/__bench/bare-headers',
      {
        headers: browser,
      },
    );
    const healthz = await run('healthz', 'GET /healthz', '/healthz', { headers: browser });
    const meSignedOut = await run('meSignedOut', 'auth.me (signed out)', '/trpc/auth.me', {
      headers: browser,
    });
    const me = await run(
      'me',
      'auth.me (signed in)',
      '/trpc/auth.me',
      cycling(meCookies, { headers: browser }),
    );
    const proceedFresh = await run(
      'fresh',
      'Proceed, no past holds',
      '/trpc/payments.start',
      cycling(freshCookies, proceedRequest(event)),
    );
    const proceedHistory = await run(
      'history',
      `Proceed, ${args.pastHolds} past holds`,
      '/trpc/payments.start',
      cycling(historyCookies, proceedRequest(event)),
    );
    const inventory = inventoryOf(database.sqlite, event);
    const results = [bare, bareHeaders, healthz, meSignedOut, me, proceedFresh, proceedHistory];
    const us = (r: LoadResult) => r.serverCpuMicrosPerRequest ?? Number.NaN;
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    console.log(
      `\n${pastHolds} past holds written; inventory invariant ${inventory.every((i) => i.invariant) ? 'holds' : 'BROKEN'}; ` +
        `ratios: history/fresh ${ratio(us(proceedHistory), us(proceedFresh))}, fresh/bare ${ratio(us(proceedFresh), us(bare))}, ` +
        `me/bare ${ratio(us(me), us(bare))}, healthz/bare ${ratio(us(healthz), us(bare))}; ` +
        `floors: bare with healthz's headers/bare ${ratio(us(bareHeaders), us(bare))}, signed-out me/bare ${ratio(us(meSignedOut), us(bare))}`,
    );
    report(
      `Hot paths: ${args.connections} connections, ${args.durationSeconds} s per scenario after 2 s of warm-up`,
      results.map((r) => ({
        scenario: r.name,
        'req/s': r.requestsPerSecond,
        'CPU µs/req': us(r),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        non2xx: r.non2xx,
        errors: r.errors,
      })),
      {
        bareUs: us(bare),
        healthzUs: us(healthz),
        meUs: us(me),
        proceedFreshUs: us(proceedFresh),
        proceedHistoryUs: us(proceedHistory),
        proceedPerSec: proceedFresh.requestsPerSecond,
        bareWithHealthzHeadersUs: us(bareHeaders),
        meSignedOutUs: us(meSignedOut),
      },
    );
  } finally {
    database.close();
    await server.stop();
  }
}

/** Each request from the next buyer in turn. */
function cycling(cookies: string[], extra: Parameters<typeof measure>[2]): Parameters<typeof measure>[2] {
  let next = 0;
  return {
    ...extra,
    setupRequest: (request) => ({
      ...request,
      headers: { ...request.headers, cookie: cookies[next++ % cookies.length]! },
    }),
  };
}

function proceedRequest(event: BenchEvent): Parameters<typeof measure>[2] {
  return {
    method: 'POST',
    body: startBody(event, event.ticketTypes[0]!.id),
    headers: { 'content-type': 'application/json', 'accept-encoding': BROWSER_ACCEPT_ENCODING },
  };
}

/**
 * `perBuyer` ended holds for every buyer of the history group, on the bench event's slot, a third each
 * expired, released (replaced) and paid (converted), spread over the past month. They hold no seats,
 * so the inventory stays as it was.
 */
function writePastHolds(sqlite: import('better-sqlite3').Database, event: BenchEvent, perBuyer: number) {
  const buyers = sqlite
    .prepare("select id from users where email like 'history-%@bench.local'")
    .pluck()
    .all() as string[];
  const insert = sqlite.prepare(
    `insert into holds (id, user_id, event_id, event_date_id, slot_id, status, details, user_city,
       subtotal_paise, fee_paise, igst_paise, total_paise, session_expires_at, expires_at, release_reason,
       created_at, ended_at)
     values (?, ?, ?, ?, ?, ?, ?, 'Mumbai', 99900, 0, 0, 99900, ?, ?, ?, ?, ?)`,
  );
  const details = JSON.stringify({
    name: 'Asha Verma',
    email: 'asha.verma@example.com',
    phone: '9876543210',
    state: 'Maharashtra',
  });
  const monthAgo = Date.now() - 30 * 86_400_000;
  let written = 0;
  sqlite.transaction(() => {
    for (const buyer of buyers) {
      for (let i = 0; i < perBuyer; i += 1) {
        const at = monthAgo + Math.floor(Math.random() * 29 * 86_400_000);
        const kind = i % 3;
        const status = kind === 2 ? 'converted' : 'released';
        const reason = kind === 0 ? 'expired' : kind === 1 ? 'replaced' : null;
        insert.run(
          timeOrderedUuid(at),
          buyer,
          event.eventId,
          event.dateId,
          event.slotId,
          status,
          details,
          new Date(at + 300_000).toISOString(),
          new Date(at + 420_000).toISOString(),
          reason,
          new Date(at).toISOString(),
          new Date(at + 60_000).toISOString(),
        );
        written += 1;
      }
    }
  })();
  return written;
}
