import { BROWSER_ACCEPT_ENCODING } from './lib/http.ts';
import { measure, report } from './lib/load.ts';
import { startBenchServer } from './lib/server.ts';

/**
 * Event list and event detail throughput against a bare Hono JSON endpoint in the same process and the
 * same run. Targets (issue 6): each ≥ 0.7 × bare. Flags: --connections N (64), --duration S (10),
 * --workers N (1; WEB_CONCURRENCY of the server).
 */
export async function runCatalogThroughput(args: {
  connections: number;
  durationSeconds: number;
  workers: number;
}) {
  const server = await startBenchServer({ WEB_CONCURRENCY: String(args.workers) });
  try {
    const list = (await (await fetch(`${server.baseURL}/trpc/events.list`)).json()) as {
      result: { data: { id: string }[] | { events: { id: string }[] } };
    };
    const data = list.result.data;
    const events = Array.isArray(data) ? data : data.events;
    const eventId = events[0]?.id;
    if (!eventId) throw new Error('events.list returned no events');
    const detailInput = encodeURIComponent(JSON.stringify({ id: eventId }));

    // Browsers always offer compression; the catalogue's answers are sent gzipped to them.
    const options = {
      connections: args.connections,
      durationSeconds: args.durationSeconds,
      headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      serverPid: server.child.pid,
    };
    // Warm up (JIT, caches) before measuring anything.
    await measure('warm-up', `${server.baseURL}/trpc/events.list`, { ...options, durationSeconds: 2 });
    const bareBefore = await measure('bare Hono JSON (before)', `${server.baseURL}/__bench/bare`, options);
    const listResult = await measure('events.list', `${server.baseURL}/trpc/events.list`, options);
    const detail = await measure(
      'events.byId',
      `${server.baseURL}/trpc/events.byId?input=${detailInput}`,
      options,
    );
    // The same bytes and headers as the events.list answer from a bare route: how far a catalogue read
    // could go if the app did nothing at all, which separates the answer's own cost from the app's.
    const ceiling = await measure(
      'bare Hono, events.list bytes',
      `${server.baseURL}/__bench/bare-catalogue`,
      options,
    );
    const bareAfter = await measure('bare Hono JSON (after)', `${server.baseURL}/__bench/bare`, options);
    // The baseline is the mean of a run before and a run after, so a machine getting busier or quieter
    // during the benchmark does not tilt the ratios.
    const bare = {
      requestsPerSecond: Math.round((bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2),
    };

    const ratio = (r: { requestsPerSecond: number }) =>
      Number((r.requestsPerSecond / bare.requestsPerSecond).toFixed(2));
    const rows = [bareBefore, bareAfter, ceiling, listResult, detail].map((r) => ({
      endpoint: r.name,
      'req/s': r.requestsPerSecond,
      'ratio to bare': ratio(r),
      'p50 ms': r.p50,
      'p97.5 ms': r.p97_5,
      'p99 ms': r.p99,
      'bytes/resp': r.bytesPerRequest,
      'server CPU µs/req': r.serverCpuMicrosPerRequest ?? '',
      'non-2xx': r.non2xx,
      errors: r.errors,
    }));
    report(`Catalogue throughput (${args.connections} connections, ${args.durationSeconds} s each)`, rows, {
      bench: 'catalog',
      connections: args.connections,
      durationSeconds: args.durationSeconds,
      workers: args.workers,
      bareRps: bare.requestsPerSecond,
      listRps: listResult.requestsPerSecond,
      detailRps: detail.requestsPerSecond,
      ceilingRps: ceiling.requestsPerSecond,
      ceilingRatio: ratio(ceiling),
      listRatio: ratio(listResult),
      detailRatio: ratio(detail),
      bareCpuMicros: bareBefore.serverCpuMicrosPerRequest,
      ceilingCpuMicros: ceiling.serverCpuMicrosPerRequest,
      listCpuMicros: listResult.serverCpuMicrosPerRequest,
      detailCpuMicros: detail.serverCpuMicrosPerRequest,
      listP99Ms: listResult.p99,
      detailP99Ms: detail.p99,
      targetRatio: 0.7,
      pass: ratio(listResult) >= 0.7 && ratio(detail) >= 0.7 && listResult.non2xx + detail.non2xx === 0,
    });
  } finally {
    await server.stop();
  }
}
