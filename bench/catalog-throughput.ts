import { measure, report } from './lib/load.ts';
import { startBenchServer } from './lib/server.ts';

/** What Chromium sends. */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/**
 * Event list and event detail throughput against a bare Hono JSON endpoint in the same process and the
 * same run. Targets (issue 6): each ≥ 0.7 × bare. Flags: --connections N (64), --duration S (10).
 */
export async function runCatalogThroughput(args: { connections: number; durationSeconds: number }) {
  const server = await startBenchServer();
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
    };
    // Warm up (JIT, caches) before measuring anything.
    await measure('warm-up', `${server.baseURL}/trpc/events.list`, { ...options, durationSeconds: 2 });
    const bare = await measure('bare Hono JSON', `${server.baseURL}/__bench/bare`, options);
    const listResult = await measure('events.list', `${server.baseURL}/trpc/events.list`, options);
    const detail = await measure(
      'events.byId',
      `${server.baseURL}/trpc/events.byId?input=${detailInput}`,
      options,
    );

    const ratio = (r: { requestsPerSecond: number }) =>
      Number((r.requestsPerSecond / bare.requestsPerSecond).toFixed(2));
    const rows = [bare, listResult, detail].map((r) => ({
      endpoint: r.name,
      'req/s': r.requestsPerSecond,
      'ratio to bare': ratio(r),
      'p50 ms': r.p50,
      'p97.5 ms': r.p97_5,
      'p99 ms': r.p99,
      'bytes/resp': r.bytesPerRequest,
      'non-2xx': r.non2xx,
      errors: r.errors,
    }));
    report(`Catalogue throughput (${args.connections} connections, ${args.durationSeconds} s each)`, rows, {
      bench: 'catalog',
      connections: args.connections,
      durationSeconds: args.durationSeconds,
      bareRps: bare.requestsPerSecond,
      listRps: listResult.requestsPerSecond,
      detailRps: detail.requestsPerSecond,
      listRatio: ratio(listResult),
      detailRatio: ratio(detail),
      listP99Ms: listResult.p99,
      detailP99Ms: detail.p99,
      targetRatio: 0.7,
      pass: ratio(listResult) >= 0.7 && ratio(detail) >= 0.7 && listResult.non2xx + detail.non2xx === 0,
    });
  } finally {
    await server.stop();
  }
}
