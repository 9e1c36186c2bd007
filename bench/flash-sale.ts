import osModule from 'node:os';
import { databaseFile, openDatabase } from '../src-server/db/client.ts';
import {
  addBoxOffice,
  type BenchEvent,
  type BoxOfficeCount,
  boxOfficeCountOf,
  createBuyers,
  createOnSaleEvent,
  type InventoryRow,
  inventoryOf,
  startBody,
} from './lib/fixtures.ts';
import {
  BROWSER_ACCEPT_ENCODING,
  createHttpClient,
  type HttpAnswer,
  type HttpClient,
  percentiles,
} from './lib/http.ts';
import { type LoadResult, measure, report } from './lib/load.ts';
import { startBenchServer } from './lib/server.ts';

export interface FlashSaleArgs {
  buyers: number;
  seats: number;
  connections: number;
  /** Seconds per sustained measurement in part 2 (bare, reservations, bare again). */
  durationSeconds: number;
  /** Server processes (WEB_CONCURRENCY): 1 is the default deployment. */
  workers: number;
  /**
   * `--box-office` (issue 40): the same sale again with a discount code applied by every buyer and the
   * types under a shared capacity smaller than their sum, and Proceed's sustained measurement taken
   * `rounds` times in turn, plain and with code + quota (medians reported).
   */
  boxOffice: boolean;
  rounds: number;
}

/**
 * The on-sale rush (issue 6), against the real app in production mode in its own process.
 *  1. Flash sale: `buyers` signed-in buyers (real sessions) race for `seats` seats (80 % General, 20 % VIP)
 *     over `connections` keep-alive connections, each through the real HTTP API: payments.start (the
 *     hold) → the simulator's Pay (POST /api/simulator/orders/:id/pay, which also fires the signed
 *     webhooks) → payments.confirm. Checks: exactly the seats sold, none oversold, no server error, and
 *     per ticket type available + active holds + sold = total.
 *  2. Reservation throughput: payments.start held for `durationSeconds` at `connections` connections on
 *     an event with ten million seats, each request a different buyer, between two measurements of a
 *     bare Hono JSON route served by the same process. Targets: ≥ 0.5 × bare, p99 < 100 ms. Beside it,
 *     a signed-in call that does next to nothing (auth.me: the session and one account row) shows what the
 *     app's stack alone costs.
 * Every buyer is verified and every Proceed passes the hoarding checks (ADR 0023); the bench server
 * turns off the per-address cap (all its buyers share 127.0.0.1) and raises the re-hold limit (its buyers
 * press Proceed many times a minute); see bench/lib/server.ts.
 */
export async function runFlashSale(args: FlashSaleArgs) {
  const server = await startBenchServer({ WEB_CONCURRENCY: String(args.workers) });
  const database = openDatabase(databaseFile(server.dataDir));
  const client = createHttpClient(server.baseURL, args.connections);
  try {
    const vipSeats = Math.floor(args.seats / 5);
    const types = [{ name: 'General', seats: args.seats - vipSeats }];
    if (vipSeats > 0) types.push({ name: 'VIP', seats: vipSeats });
    const flash = createOnSaleEvent(database.db, 'Flash Sale Night', types);
    const flashCookies = createBuyers(database.db, args.buyers, 'flash');
    const sustained = createOnSaleEvent(database.db, 'Sustained Night', [
      { name: 'General', seats: 10_000_000 },
    ]);
    const sustainedCookies = createBuyers(database.db, 40_000, 'sustained');
    const wantedType = (event: BenchEvent) => (i: number) =>
      event.ticketTypes[i % 5 === 4 && vipSeats > 0 ? 1 : 0]!;

    // The box office in play (issue 40): the same sale on a second event whose types share a capacity
    // smaller than their sum, every buyer applying a discount code; and a second sustained event with a
    // quota and a code, its Proceeds measured in turn with the plain ones.
    const box = args.boxOffice
      ? await (async () => {
          const event = createOnSaleEvent(database.db, 'Box Office Night', types);
          const sustainedEvent = createOnSaleEvent(database.db, 'Sustained Box Office Night', [
            { name: 'General', seats: 10_000_000 },
          ]);
          return {
            event,
            cookies: createBuyers(database.db, args.buyers, 'box'),
            // 80 % of the seats: demand (every buyer) exceeds it, and so does the types' sum.
            boxOffice: await addBoxOffice(database.db, event, {
              quotaCapacity: Math.floor(args.seats * 0.8),
              maxUses: args.buyers,
              maxUsesPerBuyer: 1,
            }),
            sustainedEvent,
            // The largest quota and limit the console allows; the per-buyer limit is counted on every
            // Proceed (a buyer's new Proceed gives the use of the hold it replaces back first).
            sustainedBoxOffice: await addBoxOffice(database.db, sustainedEvent, {
              quotaCapacity: 1_000_000,
              maxUses: 1_000_000,
              maxUsesPerBuyer: 1,
            }),
          };
        })()
      : null;

    // Warm-up (JIT, page cache) on the sustained events and the bare route, never on the flash events.
    let sustainedNext = 0;
    const sustainedRequest = reservationRequests(sustained, sustainedCookies, () => sustainedNext++);
    let boxNext = 0;
    const boxRequest =
      box &&
      reservationRequests(box.sustainedEvent, sustainedCookies, () => boxNext++, box.sustainedBoxOffice.code);
    await measure('warm-up bare', `${server.baseURL}/__bench/bare`, {
      connections: args.connections,
      durationSeconds: 2,
    });
    await measure('warm-up reserve', `${server.baseURL}/trpc/payments.start`, {
      ...sustainedRequest,
      connections: args.connections,
      durationSeconds: 3,
    });
    if (boxRequest) {
      await measure('warm-up reserve (box office)', `${server.baseURL}/trpc/payments.start`, {
        ...boxRequest,
        connections: args.connections,
        durationSeconds: 3,
      });
    }

    // 1. The flash sale (and the same sale with the box office in play).
    const plainSale = await flashSaleOn([client], args, flash, flashCookies, wantedType(flash));
    const boxSale =
      box &&
      (await flashSaleOn([client], args, box.event, box.cookies, wantedType(box.event), box.boxOffice.code));
    // The simulator's webhooks arrive 50 ms after each Pay; let the last ones land before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const inventory = inventoryOf(database.sqlite, flash);
    const expectedSold = flash.ticketTypes.reduce(
      (sum, t, index) =>
        sum +
        Math.min(
          t.total,
          countWanting(args.buyers, (i) => wantedType(flash)(i).id === t.id, index),
        ),
      0,
    );
    const boxResult = box && {
      sale: boxSale!,
      inventory: inventoryOf(database.sqlite, box.event),
      count: boxOfficeCountOf(database.sqlite, box.event, box.boxOffice),
      // Every buyer wants a seat: the quota, smaller than demand and than the types' sum, sells out.
      expectedSold: Math.min(box.boxOffice.quotaCapacity, expectedSold),
    };

    // 2. Sustained reservations between two bare measurements.
    const options = {
      connections: args.connections,
      durationSeconds: args.durationSeconds,
      serverPid: server.child.pid,
    };
    const bareBefore = await measure('bare Hono JSON (before)', `${server.baseURL}/__bench/bare`, options);
    // The app's whole stack for a signed-in call that does almost no work of its own (tRPC, the
    // middleware, the session lookup, one account row): what a reservation costs before its own
    // validation, pricing and writes.
    let signedInNext = 0;
    const signedIn = await measure('auth.me (signed in)', `${server.baseURL}/trpc/auth.me`, {
      ...options,
      setupRequest: (request) => ({
        ...request,
        headers: {
          ...request.headers,
          cookie: sustainedCookies[signedInNext++ % sustainedCookies.length]!,
        },
      }),
    });
    // With the box office, plain and box-office Proceeds take turns, `rounds` times each, so a
    // neighbour's load on the shared machine falls on both alike.
    const reserves: LoadResult[] = [];
    const boxReserves: LoadResult[] = [];
    for (let round = 1; round <= (box ? args.rounds : 1); round += 1) {
      const suffix = box ? ` #${round}` : '';
      reserves.push(
        await measure(`payments.start (sustained)${suffix}`, `${server.baseURL}/trpc/payments.start`, {
          ...options,
          ...sustainedRequest,
        }),
      );
      if (boxRequest) {
        boxReserves.push(
          await measure(`payments.start (code + quota)${suffix}`, `${server.baseURL}/trpc/payments.start`, {
            ...options,
            ...boxRequest,
          }),
        );
      }
    }
    const reserve = medianRun(reserves);
    const bareAfter = await measure('bare Hono JSON (after)', `${server.baseURL}/__bench/bare`, options);
    const bareRps = Math.round((bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2);
    const sustainedInventory = inventoryOf(database.sqlite, sustained);
    const boxSustained = box && {
      reserves: boxReserves,
      reserve: medianRun(boxReserves),
      inventory: inventoryOf(database.sqlite, box.sustainedEvent),
      count: boxOfficeCountOf(database.sqlite, box.sustainedEvent, box.sustainedBoxOffice),
    };

    return printResults(args, {
      steps: plainSale.steps,
      booked: plainSale.booked,
      flashSeconds: plainSale.seconds,
      inventory,
      expectedSold,
      bareBefore,
      bareAfter,
      bareRps,
      signedIn,
      reserves,
      reserve,
      sustainedInventory,
      box: boxResult && boxSustained ? { ...boxResult, sustained: boxSustained } : null,
    });
  } finally {
    client.close();
    database.close();
    await server.stop();
  }
}

/** The run whose server CPU per request is the median of the runs (the middle one of three). */
function medianRun(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort(
    (a, b) => (a.serverCpuMicrosPerRequest ?? 0) - (b.serverCpuMicrosPerRequest ?? 0),
  );
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export interface SaleRun {
  steps: Record<'start' | 'pay' | 'confirm', Step>;
  booked: number;
  seconds: number;
}

/**
 * One flash sale: every buyer, once, over `connections` keep-alive connections, through the real HTTP
 * API: payments.start (the hold, with the discount code when given) → the simulator's Pay →
 * payments.confirm.
 */
export async function flashSaleOn(
  /** One per server process: buyer i goes to `clients[i % clients.length]` for all three steps. */
  clients: HttpClient[],
  args: Pick<FlashSaleArgs, 'buyers' | 'connections'>,
  event: BenchEvent,
  cookies: string[],
  wantedType: (i: number) => { id: string },
  discountCode?: string,
): Promise<SaleRun> {
  const steps = { start: newStep(), pay: newStep(), confirm: newStep() };
  let booked = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: args.connections }, async () => {
      while (next < args.buyers) {
        const i = next++;
        const cookie = cookies[i]!;
        const client = clients[i % clients.length]!;
        const start = await client.post(
          '/trpc/payments.start',
          startBody(event, wantedType(i).id, discountCode),
          { cookie },
        );
        steps.start.record(start, (a) => a.status === 409 && a.body.includes('Sold Out'));
        if (start.status !== 200) continue;
        const order = (JSON.parse(start.body) as { result: { data: { orderId: string } } }).result.data;
        const pay = await client.post(`/api/simulator/orders/${order.orderId}/pay`, null);
        steps.pay.record(pay);
        if (pay.status !== 200) continue;
        const paid = JSON.parse(pay.body) as {
          razorpay_order_id: string;
          razorpay_payment_id: string;
          razorpay_signature: string;
        };
        const confirm = await client.post(
          '/trpc/payments.confirm',
          JSON.stringify({
            orderId: paid.razorpay_order_id,
            paymentId: paid.razorpay_payment_id,
            signature: paid.razorpay_signature,
          }),
          { cookie },
        );
        steps.confirm.record(confirm);
        if (confirm.status === 200 && confirm.body.includes('"outcome":"booked"')) booked += 1;
      }
    }),
  );
  return { steps, booked, seconds: (performance.now() - started) / 1000 };
}

/**
 * autocannon options for payments.start: one ticket, each request a different buyer's session, with a
 * browser's Accept-Encoding (the answer is under compress()'s 1 KB threshold, so it goes out as is).
 */
export function reservationRequests(
  event: BenchEvent,
  cookies: string[],
  nextIndex: () => number,
  discountCode?: string,
) {
  return {
    method: 'POST' as const,
    body: startBody(event, event.ticketTypes[0]!.id, discountCode),
    headers: { 'content-type': 'application/json', 'accept-encoding': BROWSER_ACCEPT_ENCODING },
    setupRequest: (request: import('autocannon').Request) => ({
      ...request,
      headers: { ...request.headers, cookie: cookies[nextIndex() % cookies.length]! },
    }),
  };
}

export function countWanting(buyers: number, wants: (i: number) => boolean, _type: number): number {
  let n = 0;
  for (let i = 0; i < buyers; i += 1) if (wants(i)) n += 1;
  return n;
}

export interface Step {
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
  serverErrors: number;
  record: (answer: HttpAnswer, expected?: (a: HttpAnswer) => boolean) => void;
}

/** Latencies and answers of one step; `expected` marks non-200 answers that are not errors (sold out). */
export function newStep(): Step {
  const step: Step = {
    latencies: [],
    statuses: new Map(),
    errors: 0,
    serverErrors: 0,
    record(answer, expected) {
      step.latencies.push(answer.ms);
      step.statuses.set(answer.status, (step.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status !== 200 && !expected?.(answer)) step.errors += 1;
      if (answer.status === 0 || answer.status >= 500) step.serverErrors += 1;
    },
  };
  return step;
}

function printResults(
  args: FlashSaleArgs,
  r: {
    steps: Record<'start' | 'pay' | 'confirm', Step>;
    booked: number;
    flashSeconds: number;
    inventory: InventoryRow[];
    expectedSold: number;
    bareBefore: LoadResult;
    bareAfter: LoadResult;
    bareRps: number;
    signedIn: LoadResult;
    /** Every sustained Proceed measurement (one, or `rounds` with the box office), and the median. */
    reserves: LoadResult[];
    reserve: LoadResult;
    sustainedInventory: InventoryRow[];
    box: BoxOfficeResult | null;
  },
) {
  const sold = r.inventory.reduce((sum, t) => sum + t.sold, 0);
  const oversold = r.inventory.reduce(
    (sum, t) => sum + Math.max(0, t.sold + t.held - t.total) + Math.max(0, -t.available),
    0,
  );
  const serverErrors = Object.values(r.steps).reduce((sum, s) => sum + s.serverErrors, 0);
  const errors = Object.values(r.steps).reduce((sum, s) => sum + s.errors, 0);
  const invariantHolds = [...r.inventory, ...r.sustainedInventory].every((t) => t.invariant);
  const startLatency = percentiles(r.steps.start.latencies);
  const reservationsPerSecond = Math.round(r.steps.start.latencies.length / r.flashSeconds);
  const statusText = (s: Step) =>
    [...s.statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');

  console.log(
    `\nFlash sale: ${args.buyers} buyers, ${args.seats} seats, ${args.connections} connections, ${r.flashSeconds.toFixed(1)} s`,
  );
  console.table(
    (['start', 'pay', 'confirm'] as const).map((name) => {
      const s = r.steps[name];
      const p = percentiles(s.latencies);
      return {
        step:
          name === 'start' ? 'payments.start (hold)' : name === 'pay' ? 'simulator pay' : 'payments.confirm',
        requests: s.latencies.length,
        statuses: statusText(s),
        errors: s.errors,
        'p50 ms': p.p50,
        'p95 ms': p.p95,
        'p99 ms': p.p99,
        'max ms': p.max,
      };
    }),
  );
  console.log('Inventory after the run (available + held + sold = total):');
  console.table(
    [...r.inventory, ...r.sustainedInventory].map(({ ticketTypeId: _id, ...row }) => ({
      ...row,
      invariant: row.invariant ? 'holds' : 'BROKEN',
    })),
  );
  const ratio = Number((r.reserve.requestsPerSecond / r.bareRps).toFixed(2));
  const boxReserves = r.box?.sustained.reserves ?? [];
  const measured = [r.bareBefore, r.signedIn];
  for (const [i, reserve] of r.reserves.entries()) {
    measured.push(reserve);
    if (boxReserves[i]) measured.push(boxReserves[i]);
  }
  measured.push(r.bareAfter);
  const rows = measured.map((x) => ({
    endpoint: x.name,
    'req/s': x.requestsPerSecond,
    'p50 ms': x.p50,
    'p97.5 ms': x.p97_5,
    'p99 ms': x.p99,
    'bytes/resp': x.bytesPerRequest,
    'server CPU µs/req': x.serverCpuMicrosPerRequest ?? '',
    'non-2xx': x.non2xx,
    errors: x.errors,
  }));
  const box = r.box && boxOfficeSummary(r.box);
  const pass =
    (box?.pass ?? true) &&
    sold === r.expectedSold &&
    oversold === 0 &&
    serverErrors === 0 &&
    invariantHolds &&
    r.booked === sold &&
    ratio >= 0.5 &&
    r.reserve.p99 < 100 &&
    r.reserve.non2xx === 0;
  console.log(
    `\nThe row for docs/benchmarks.md (engines side by side; ${SIDE_BY_SIDE_HEADER.length} columns, header printed by the PostgreSQL run):`,
  );
  console.log(
    sideBySideRow({
      engine: `SQLite, ${args.workers} process${args.workers > 1 ? 'es' : ''}`,
      buyers: args.buyers,
      seats: args.seats,
      sold,
      oversold,
      serverErrors,
      flashHoldsPerSecond: reservationsPerSecond,
      flashP50: startLatency.p50,
      flashP99: startLatency.p99,
      reserve: r.reserve,
      postgresCpuMicros: null,
    }),
  );
  report(
    `Reservation throughput vs bare Hono (${args.workers} server process${args.workers > 1 ? 'es' : ''}, ${args.connections} connections, ${args.durationSeconds} s each; ratio against the mean of both bare runs)`,
    rows,
    {
      bench: 'flash-sale',
      buyers: args.buyers,
      seats: args.seats,
      connections: args.connections,
      workers: args.workers,
      sold,
      expectedSold: r.expectedSold,
      booked: r.booked,
      oversold,
      serverErrors,
      errors,
      statuses: Object.fromEntries(
        (['start', 'pay', 'confirm'] as const).map((k) => [k, Object.fromEntries(r.steps[k].statuses)]),
      ),
      invariantHolds,
      flashSeconds: Number(r.flashSeconds.toFixed(2)),
      reservationsPerSecond,
      startP50Ms: startLatency.p50,
      startP95Ms: startLatency.p95,
      startP99Ms: startLatency.p99,
      bareRps: r.bareRps,
      reserveRps: r.reserve.requestsPerSecond,
      reserveRatio: ratio,
      reserveP50Ms: r.reserve.p50,
      reserveP99Ms: r.reserve.p99,
      reserveCpuMicros: r.reserve.serverCpuMicrosPerRequest,
      ...(r.reserves.length > 1 && {
        reserveCpuMicrosRuns: r.reserves.map((x) => x.serverCpuMicrosPerRequest),
      }),
      signedInRps: r.signedIn.requestsPerSecond,
      signedInCpuMicros: r.signedIn.serverCpuMicrosPerRequest,
      bareCpuMicros: r.bareBefore.serverCpuMicrosPerRequest,
      reserveNon2xx: r.reserve.non2xx,
      ...(box && { boxOffice: box.summary }),
      pass,
    },
  );
  return pass;
}

interface BoxOfficeResult {
  sale: SaleRun;
  inventory: InventoryRow[];
  count: BoxOfficeCount;
  expectedSold: number;
  sustained: {
    reserves: LoadResult[];
    reserve: LoadResult;
    inventory: InventoryRow[];
    count: BoxOfficeCount;
  };
}

/**
 * The box-office sale's checks (issue 40): nothing oversold, per type or per quota (ADR 0039's
 * invariant); exactly the quota's capacity sold, demand being larger; the code's uses equal to the
 * bookings made with it (and, on the sustained event, to the bookings plus the active holds carrying it);
 * no server error. Prints its tables and returns the summary for the JSON line.
 */
function boxOfficeSummary(b: BoxOfficeResult) {
  const sold = b.inventory.reduce((sum, t) => sum + t.sold, 0);
  const oversold =
    b.inventory.reduce(
      (sum, t) => sum + Math.max(0, t.sold + t.held - t.total) + Math.max(0, -t.available),
      0,
    ) +
    Math.max(0, b.count.quota.sold + b.count.quota.held - b.count.quota.capacity) +
    Math.max(0, -b.count.quota.available);
  const serverErrors = Object.values(b.sale.steps).reduce((sum, s) => sum + s.serverErrors, 0);
  const errors = Object.values(b.sale.steps).reduce((sum, s) => sum + s.errors, 0);
  const invariantHolds =
    [...b.inventory, ...b.sustained.inventory].every((t) => t.invariant) &&
    b.count.quota.invariant &&
    b.sustained.count.quota.invariant;
  const codeUsesMatch =
    b.count.code.uses === b.count.code.onBookings + b.count.code.onActiveHolds &&
    b.count.code.onBookings === b.sale.booked &&
    b.count.code.bookingsOfEvent === b.sale.booked &&
    b.sustained.count.code.uses === b.sustained.count.code.onBookings + b.sustained.count.code.onActiveHolds;
  const startLatency = percentiles(b.sale.steps.start.latencies);
  console.log(
    `\nBox-office flash sale (code applied by every buyer, quota of ${b.count.quota.capacity} over types of ${b.inventory.reduce((sum, t) => sum + t.total, 0)}): ${b.sale.seconds.toFixed(1)} s`,
  );
  console.table(
    (['start', 'pay', 'confirm'] as const).map((name) => {
      const s = b.sale.steps[name];
      const p = percentiles(s.latencies);
      return {
        step: name,
        requests: s.latencies.length,
        statuses: [...s.statuses]
          .sort((x, y) => x[0] - y[0])
          .map(([status, n]) => `${status}×${n}`)
          .join(' '),
        errors: s.errors,
        'p50 ms': p.p50,
        'p99 ms': p.p99,
      };
    }),
  );
  console.log('Box office: per type, the quota (available + held + sold = capacity) and the code’s uses:');
  console.table([
    ...[...b.inventory, ...b.sustained.inventory].map(({ ticketTypeId: _id, ...row }) => ({
      ...row,
      invariant: row.invariant ? 'holds' : 'BROKEN',
    })),
    ...[b.count, b.sustained.count].map((c, i) => ({
      name: i === 0 ? 'quota (flash)' : 'quota (sustained)',
      total: c.quota.capacity,
      available: c.quota.available,
      held: c.quota.held,
      sold: c.quota.sold,
      invariant: c.quota.invariant ? 'holds' : 'BROKEN',
    })),
  ]);
  console.table(
    [b.count, b.sustained.count].map((c, i) => ({
      event: i === 0 ? 'flash' : 'sustained',
      'code uses': c.code.uses,
      'on bookings': c.code.onBookings,
      'on active holds': c.code.onActiveHolds,
      'bookings of event': c.code.bookingsOfEvent,
    })),
  );
  const pass =
    sold === b.expectedSold &&
    b.sale.booked === sold &&
    oversold === 0 &&
    serverErrors === 0 &&
    invariantHolds &&
    codeUsesMatch &&
    b.sustained.reserve.non2xx === 0;
  return {
    pass,
    summary: {
      sold,
      expectedSold: b.expectedSold,
      booked: b.sale.booked,
      oversold,
      serverErrors,
      errors,
      invariantHolds,
      codeUses: b.count.code.uses,
      codeUsesMatch,
      flashSeconds: Number(b.sale.seconds.toFixed(2)),
      startP50Ms: startLatency.p50,
      startP99Ms: startLatency.p99,
      reserveRps: b.sustained.reserve.requestsPerSecond,
      reserveP99Ms: b.sustained.reserve.p99,
      reserveCpuMicros: b.sustained.reserve.serverCpuMicrosPerRequest,
      reserveCpuMicrosRuns: b.sustained.reserves.map((x) => x.serverCpuMicrosPerRequest),
      pass,
    },
  };
}

/** The side-by-side table of docs/benchmarks.md (issue 38): one row per engine and process count. */
export const SIDE_BY_SIDE_HEADER = [
  'Engine, app processes',
  'Load avg (1 min) at the run',
  'Flash sale: sold / seats, oversold, 5xx',
  'Flash sale holds/s',
  'Flash Proceed p50 / p99 ms',
  'Sustained Proceed/s (one type)',
  'Sustained p50 / p99 ms',
  'App CPU µs / Proceed (all processes)',
  'PostgreSQL CPU µs / Proceed (its backends)',
];

export function markdownRow(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The machine's 1-minute load average now, to print beside every figure (a shared 2-core machine). */
export function loadAverageNow(): string {
  return osModule.loadavg()[0]!.toFixed(2);
}

export function sideBySideRow(r: {
  engine: string;
  buyers: number;
  seats: number;
  sold: number;
  oversold: number;
  serverErrors: number;
  flashHoldsPerSecond: number;
  flashP50: number;
  flashP99: number;
  reserve: LoadResult;
  postgresCpuMicros: number | null;
}): string {
  return markdownRow([
    r.engine,
    loadAverageNow(),
    `${r.sold} / ${r.seats}, ${r.oversold}, ${r.serverErrors}`,
    r.flashHoldsPerSecond,
    `${r.flashP50} / ${r.flashP99}`,
    r.reserve.requestsPerSecond,
    `${r.reserve.p50} / ${r.reserve.p99}`,
    r.reserve.serverCpuMicrosPerRequest ?? '',
    r.postgresCpuMicros ?? '– (in the app process)',
  ]);
}
