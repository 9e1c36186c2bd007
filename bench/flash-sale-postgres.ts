import {
  countWanting,
  flashSaleOn,
  loadAverageNow,
  markdownRow,
  reservationRequests,
  type SaleRun,
  SIDE_BY_SIDE_HEADER,
  sideBySideRow,
} from './flash-sale.ts';
import {
  type BenchEvent,
  createBuyers,
  createOnSaleEvent,
  type InventoryRow,
  startBody,
} from './lib/fixtures.ts';
import { BROWSER_ACCEPT_ENCODING, createHttpClient, percentiles } from './lib/http.ts';
import { type LoadResult, measure, processSystemCpuMicros, report } from './lib/load.ts';
import {
  benchPostgresServerUrl,
  inventoryOnPostgres,
  type LockTiming,
  lockTimingFromLog,
  logSize,
  postgresCpuMeter,
  postgresLogFile,
  scratchBenchDatabase,
  startPostgresServers,
  statementLogging,
} from './lib/postgres.ts';

export interface PostgresFlashSaleArgs {
  buyers: number;
  seats: number;
  connections: number;
  durationSeconds: number;
  /** App processes, each its own port, all on the one database. */
  servers: number;
  /** The PostgreSQL server to make the scratch database on ('' = the test PostgreSQL). */
  databaseUrl: string;
  /** DATABASE_POOL_SIZE of each app process (0 = the app's default). */
  poolSize: number;
  /** Buyers for the sustained measurements (each Proceed a different buyer). */
  sustainedBuyers: number;
  /** Ticket types the spread measurement's Proceeds take turns over. */
  spreadTypes: number;
  /** Seconds of the hot-type run with statement timing on (0 = skip the lock timing). */
  lockSeconds: number;
  /** The PostgreSQL server's log file ('' = beside the test PostgreSQL's data directory). */
  postgresLog: string;
}

/**
 * Issue 38's proof: the same flash sale as `flash-sale` (bench/flash-sale.ts) on `servers` app processes
 * sharing one PostgreSQL database, the load generator spreading buyers round-robin over them, with
 * PostgreSQL's own CPU beside the app's. Then the hot ticket type: every Proceed on ONE type, whose row
 * each hold locks from its conditional UPDATE to its COMMIT, against the same Proceeds spread over
 * `spreadTypes` types; and how long that lock is held, from PostgreSQL's statement log, which bounds
 * the hot type's rate at about 1 / (time held).
 */
export async function runFlashSalePostgres(args: PostgresFlashSaleArgs) {
  const serverUrl = benchPostgresServerUrl(args.databaseUrl);
  const vipSeats = Math.floor(args.seats / 5);
  const types = [{ name: 'General', seats: args.seats - vipSeats }];
  if (vipSeats > 0) types.push({ name: 'VIP', seats: vipSeats });
  const setupStarted = performance.now();
  const scratch = await scratchBenchDatabase(serverUrl, (db) => ({
    flash: createOnSaleEvent(db, 'Flash Sale Night', types),
    hot: createOnSaleEvent(db, 'Hot Type Night', [{ name: 'General', seats: args.seats }]),
    sustained: createOnSaleEvent(db, 'Sustained Night', [{ name: 'General', seats: 10_000_000 }]),
    spread: createOnSaleEvent(
      db,
      'Spread Night',
      Array.from({ length: args.spreadTypes }, (_, i) => ({ name: `Zone ${i + 1}`, seats: 10_000_000 })),
    ),
    flashCookies: createBuyers(db, args.buyers, 'flash'),
    hotCookies: createBuyers(db, args.buyers, 'hot'),
    sustainedCookies: createBuyers(db, args.sustainedBuyers, 'sustained'),
  }));
  const { flash, hot, sustained, spread, flashCookies, hotCookies, sustainedCookies } = scratch.fixtures;
  console.log(
    `Scratch database ${scratch.name} on ${new URL(serverUrl).host}: buyers and events written and moved in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
  );
  const servers = await startPostgresServers(scratch.url, args.servers, args.poolSize);
  const perServer = Math.max(1, Math.ceil(args.connections / args.servers));
  const clients = servers.map((server) => createHttpClient(server.baseURL, perServer));
  const urls = (pathname: string) => servers.map((server) => `${server.baseURL}${pathname}`);
  const serverPids = servers.map((server) => server.child.pid!);
  const pgCpu = postgresCpuMeter(serverUrl, scratch.name);
  try {
    const wantedType = (event: BenchEvent) => (i: number) =>
      event.ticketTypes[i % 5 === 4 && event.ticketTypes.length > 1 ? 1 : 0]!;
    let sustainedNext = 0;
    const nextBuyer = () => sustainedNext++;
    const hotRequest = reservationRequests(sustained, sustainedCookies, nextBuyer);
    const spreadRequest = spreadRequests(spread, sustainedCookies, nextBuyer);

    // Warm-up (JIT, the pools' connections, PostgreSQL's caches) on the sustained events and the bare
    // route, never on the flash events.
    await measure('warm-up bare', urls('/__bench/bare'), {
      connections: args.connections,
      durationSeconds: 2,
    });
    await measure('warm-up reserve', urls('/trpc/payments.start'), {
      ...hotRequest,
      connections: args.connections,
      durationSeconds: 3,
    });

    // 1. The flash sale (80 % General, 20 % VIP), and the hot-type sale (every buyer on one type).
    const flashLoad = loadAverageNow();
    const flashCpu = await pgCpu.start();
    const sale = await flashSaleOn(clients, args, flash, flashCookies, wantedType(flash));
    const flashPgMicros = await flashCpu.stop();
    const hotSale = await flashSaleOn(clients, args, hot, hotCookies, () => hot.ticketTypes[0]!);
    // The simulator's webhooks arrive 50 ms after each Pay; let the last ones land before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const flashCheck = saleCheck(sale, await inventoryOnPostgres(scratch.url, flash), expectedSoldOf(flash));
    const hotCheck = saleCheck(
      hotSale,
      await inventoryOnPostgres(scratch.url, hot),
      Math.min(args.seats, args.buyers),
    );
    function expectedSoldOf(event: BenchEvent) {
      return event.ticketTypes.reduce(
        (sum, t, index) =>
          sum +
          Math.min(
            t.total,
            countWanting(args.buyers, (i) => wantedType(event)(i).id === t.id, index),
          ),
        0,
      );
    }

    // 2. Sustained Proceeds: on one type (the hot row), then spread over `spreadTypes` types.
    const options = { connections: args.connections, durationSeconds: args.durationSeconds, serverPids };
    const withPgCpu = async (name: string, pathname: string, extra: Parameters<typeof measure>[2]) => {
      const load = loadAverageNow();
      const systemNow = () => serverPids.reduce((sum, pid) => sum + processSystemCpuMicros(pid), 0);
      const systemBefore = systemNow();
      const cpu = await pgCpu.start();
      const result = await measure(name, urls(pathname), { ...options, ...extra });
      const pgMicros = await cpu.stop();
      const perRequest = (micros: number) => (result.requests > 0 ? Math.round(micros / result.requests) : 0);
      return {
        ...result,
        load,
        // The app's time in the kernel: its socket writes to PostgreSQL and to the load generator.
        systemCpuMicrosPerRequest: perRequest(systemNow() - systemBefore),
        postgresCpuMicrosPerRequest: perRequest(pgMicros),
      };
    };
    const bareBefore = await withPgCpu('bare Hono JSON (before)', '/__bench/bare', {});
    const hotReserve = await withPgCpu(
      'payments.start, one type (hot row)',
      '/trpc/payments.start',
      hotRequest,
    );
    const spreadReserve = await withPgCpu(
      `payments.start, ${args.spreadTypes} types in turn`,
      '/trpc/payments.start',
      spreadRequest,
    );
    const bareAfter = await withPgCpu('bare Hono JSON (after)', '/__bench/bare', {});

    // 3. The hot row's lock, timed by PostgreSQL's statement log.
    const lock = args.lockSeconds > 0 ? await lockTiming() : null;
    async function lockTiming() {
      const file = await postgresLogFile(serverUrl, args.postgresLog);
      if (!file) {
        console.log(
          'Lock timing skipped: the PostgreSQL log is not readable here (pass --postgres-log FILE).',
        );
        return null;
      }
      await statementLogging(serverUrl, scratch.name, true);
      try {
        // The pools' connections predate the setting: idle past pg.Pool's 10 s timeout, they reconnect.
        await new Promise((resolve) => setTimeout(resolve, 11_000));
        await measure('reconnect', urls('/trpc/payments.start'), {
          ...hotRequest,
          connections: args.connections,
          durationSeconds: 1,
        });
        const offset = logSize(file);
        const before = await backendsOf(scratch.name);
        const timed = await withPgCpu('payments.start, one type, statements logged', '/trpc/payments.start', {
          ...hotRequest,
          durationSeconds: args.lockSeconds,
        });
        const pids = new Set([...before, ...(await backendsOf(scratch.name))]);
        return { timed, timing: lockTimingFromLog(file, offset, pids), file };
      } finally {
        await statementLogging(serverUrl, scratch.name, false);
      }
    }
    async function backendsOf(name: string) {
      return (
        await pgCpu.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [name])
      ).map((row) => row.pid);
    }

    return printResults(args, {
      flashLoad,
      sale: flashCheck,
      hotSale: hotCheck,
      flashPgMicros,
      bareBefore,
      bareAfter,
      hotReserve,
      spreadReserve,
      lock,
      inventory: [
        ...(await inventoryOnPostgres(scratch.url, sustained)),
        ...(await inventoryOnPostgres(scratch.url, spread)),
      ],
    });
  } finally {
    for (const client of clients) client.close();
    await pgCpu.close();
    for (const server of servers) await server.stop();
    await scratch.drop();
  }
}

/** Proceeds spread over an event's types in turn, each request a different buyer. */
function spreadRequests(event: BenchEvent, cookies: string[], nextIndex: () => number) {
  const bodies = event.ticketTypes.map((t) => startBody(event, t.id));
  return {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    setupRequest: (request: import('autocannon').Request) => {
      const i = nextIndex();
      return {
        ...request,
        body: bodies[i % bodies.length]!,
        headers: { ...request.headers, cookie: cookies[i % cookies.length]! },
      };
    },
  };
}

interface SaleCheck {
  run: SaleRun;
  inventory: InventoryRow[];
  sold: number;
  expectedSold: number;
  oversold: number;
  serverErrors: number;
  invariant: boolean;
  holdsPerSecond: number;
  p50: number;
  p99: number;
  pass: boolean;
}

function saleCheck(run: SaleRun, inventory: InventoryRow[], expectedSold: number): SaleCheck {
  const sold = inventory.reduce((sum, t) => sum + t.sold, 0);
  const oversold = inventory.reduce(
    (sum, t) => sum + Math.max(0, t.sold + t.held - t.total) + Math.max(0, -t.available),
    0,
  );
  const serverErrors = Object.values(run.steps).reduce((sum, s) => sum + s.serverErrors, 0);
  const invariant = inventory.every((t) => t.invariant);
  const latency = percentiles(run.steps.start.latencies);
  return {
    run,
    inventory,
    sold,
    expectedSold,
    oversold,
    serverErrors,
    invariant,
    holdsPerSecond: Math.round(run.steps.start.latencies.length / run.seconds),
    p50: latency.p50,
    p99: latency.p99,
    pass: sold === expectedSold && run.booked === sold && oversold === 0 && serverErrors === 0 && invariant,
  };
}

type Measured = LoadResult & {
  load: string;
  systemCpuMicrosPerRequest: number;
  postgresCpuMicrosPerRequest: number;
};

function printResults(
  args: PostgresFlashSaleArgs,
  r: {
    flashLoad: string;
    sale: SaleCheck;
    hotSale: SaleCheck;
    flashPgMicros: number;
    bareBefore: Measured;
    bareAfter: Measured;
    hotReserve: Measured;
    spreadReserve: Measured;
    lock: { timed: Measured; timing: LockTiming; file: string } | null;
    inventory: InventoryRow[];
  },
) {
  const processes = `${args.servers} process${args.servers > 1 ? 'es' : ''}`;
  for (const [title, s] of [
    ['Flash sale (80 % General, 20 % VIP)', r.sale],
    ['Hot-type flash sale (every buyer on one type)', r.hotSale],
  ] as const) {
    console.log(
      `\n${title} on PostgreSQL, ${processes}: ${args.buyers} buyers, ${args.seats} seats, ${args.connections} connections, ${s.run.seconds.toFixed(1)} s; sold ${s.sold} of ${s.expectedSold} expected, oversold ${s.oversold}, 5xx ${s.serverErrors}`,
    );
    console.table(
      (['start', 'pay', 'confirm'] as const).map((name) => {
        const step = s.run.steps[name];
        const p = percentiles(step.latencies);
        return {
          step: name,
          requests: step.latencies.length,
          statuses: [...step.statuses]
            .sort((a, b) => a[0] - b[0])
            .map(([status, n]) => `${status}×${n}`)
            .join(' '),
          errors: step.errors,
          'p50 ms': p.p50,
          'p99 ms': p.p99,
        };
      }),
    );
  }
  console.log('Inventory after the runs (available + held + sold = total):');
  console.table(
    [...r.sale.inventory, ...r.hotSale.inventory, ...r.inventory].map(({ ticketTypeId: _id, ...row }) => ({
      ...row,
      invariant: row.invariant ? 'holds' : 'BROKEN',
    })),
  );
  const measured = [
    r.bareBefore,
    r.hotReserve,
    r.spreadReserve,
    r.bareAfter,
    ...(r.lock ? [r.lock.timed] : []),
  ];
  console.log(
    `\nSustained (${processes}, ${args.connections} connections spread over them, ${args.durationSeconds} s each):`,
  );
  console.table(
    measured.map((x) => ({
      endpoint: x.name,
      'req/s': x.requestsPerSecond,
      'p50 ms': x.p50,
      'p99 ms': x.p99,
      'app CPU µs/req': x.serverCpuMicrosPerRequest ?? '',
      'of which kernel': x.systemCpuMicrosPerRequest,
      'PostgreSQL CPU µs/req': x.postgresCpuMicrosPerRequest,
      'non-2xx': x.non2xx,
      errors: x.errors,
      'load avg': x.load,
    })),
  );
  if (r.lock) {
    const t = r.lock.timing;
    console.log(
      `\nThe hot row's lock (${r.lock.file}; ${t.holds} holds by ${t.backends} backends, ${args.lockSeconds} s with every statement logged):`,
    );
    console.table([
      {
        'held mean ms': t.heldMeanMs,
        'held p50 ms': t.heldP50Ms,
        'held p99 ms': t.heldP99Ms,
        '1 / held = holds/s': t.heldMeanMs > 0 ? Math.round(1000 / t.heldMeanMs) : '',
        'measured holds/s': r.lock.timed.requestsPerSecond,
        'UPDATE mean ms (lock wait incl.)': t.updateMeanMs,
        'statements after the UPDATE': t.statementsAfterUpdate,
        'their own time ms': t.statementsAfterUpdateMeanMs,
      },
    ]);
  }

  const pass =
    r.sale.pass &&
    r.hotSale.pass &&
    r.inventory.every((t) => t.invariant) &&
    r.hotReserve.non2xx === 0 &&
    r.spreadReserve.non2xx === 0;
  console.log('\nRows for docs/benchmarks.md (paste under the header):');
  console.log(markdownRow(SIDE_BY_SIDE_HEADER));
  console.log(markdownRow(SIDE_BY_SIDE_HEADER.map(() => '---')));
  console.log(
    sideBySideRow({
      engine: `PostgreSQL, ${processes}`,
      buyers: args.buyers,
      seats: args.seats,
      sold: r.sale.sold,
      oversold: r.sale.oversold,
      serverErrors: r.sale.serverErrors,
      flashHoldsPerSecond: r.sale.holdsPerSecond,
      flashP50: r.sale.p50,
      flashP99: r.sale.p99,
      reserve: r.hotReserve,
      postgresCpuMicros: r.hotReserve.postgresCpuMicrosPerRequest,
    }).replace(
      /^\| [^|]+ \| [^|]+ \|/,
      `| PostgreSQL, ${processes} | ${r.flashLoad} / ${r.hotReserve.load} |`,
    ),
  );
  console.log('');
  console.log(markdownRow(HOT_HEADER));
  console.log(markdownRow(HOT_HEADER.map(() => '---')));
  const t = r.lock?.timing;
  console.log(
    markdownRow([
      `PostgreSQL, ${processes}`,
      r.hotReserve.load,
      `${r.hotSale.holdsPerSecond} (sold ${r.hotSale.sold} / ${r.hotSale.expectedSold}, oversold ${r.hotSale.oversold}, 5xx ${r.hotSale.serverErrors})`,
      `${r.hotReserve.requestsPerSecond} (p99 ${r.hotReserve.p99} ms)`,
      `${r.spreadReserve.requestsPerSecond} (p99 ${r.spreadReserve.p99} ms)`,
      t ? `${t.heldMeanMs} / ${t.heldP50Ms} / ${t.heldP99Ms}` : '–',
      t && t.heldMeanMs > 0 ? Math.round(1000 / t.heldMeanMs) : '–',
      r.lock ? r.lock.timed.requestsPerSecond : '–',
      t ? t.updateMeanMs : '–',
    ]),
  );
  console.log('');
  report('The figures as one JSON line:', [], {
    bench: 'flash-sale',
    engine: 'postgres',
    servers: args.servers,
    buyers: args.buyers,
    seats: args.seats,
    connections: args.connections,
    loadAverage: r.flashLoad,
    sold: r.sale.sold,
    expectedSold: r.sale.expectedSold,
    oversold: r.sale.oversold,
    serverErrors: r.sale.serverErrors,
    flashHoldsPerSecond: r.sale.holdsPerSecond,
    flashPostgresCpuMicrosPerHold: Math.round(
      r.flashPgMicros / Math.max(1, r.sale.run.steps.start.latencies.length),
    ),
    startP50Ms: r.sale.p50,
    startP99Ms: r.sale.p99,
    hotSale: {
      sold: r.hotSale.sold,
      oversold: r.hotSale.oversold,
      serverErrors: r.hotSale.serverErrors,
      holdsPerSecond: r.hotSale.holdsPerSecond,
    },
    reserveRps: r.hotReserve.requestsPerSecond,
    reserveP50Ms: r.hotReserve.p50,
    reserveP99Ms: r.hotReserve.p99,
    reserveCpuMicros: r.hotReserve.serverCpuMicrosPerRequest,
    reserveSystemCpuMicros: r.hotReserve.systemCpuMicrosPerRequest,
    reservePostgresCpuMicros: r.hotReserve.postgresCpuMicrosPerRequest,
    spreadRps: r.spreadReserve.requestsPerSecond,
    spreadCpuMicros: r.spreadReserve.serverCpuMicrosPerRequest,
    spreadPostgresCpuMicros: r.spreadReserve.postgresCpuMicrosPerRequest,
    bareRps: Math.round((r.bareBefore.requestsPerSecond + r.bareAfter.requestsPerSecond) / 2),
    lock: r.lock && { ...r.lock.timing, timedRps: r.lock.timed.requestsPerSecond },
    pass,
  });
  return pass;
}

/** The hot ticket type on PostgreSQL (issue 38): its rate against its row lock's time held. */
const HOT_HEADER = [
  'Engine, app processes',
  'Load avg (1 min)',
  'Hot-type flash sale holds/s',
  'Sustained Proceed/s, one type',
  'Sustained Proceed/s, types in turn',
  'Row lock held mean / p50 / p99 ms (statements logged)',
  '1 / held mean',
  'Proceed/s while timed',
  'Conditional UPDATE mean ms (lock wait incl.)',
];
