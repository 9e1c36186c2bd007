import { readFileSync } from 'node:fs';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { databaseFile, openDatabase } from '../src-server/db/client.ts';
import { insertLargeCatalogue, removeLargeCatalogue } from '../test/helpers/large-catalogue.ts';
import { type LoadResult, measure, report } from './lib/load.ts';
import { startBenchServer } from './lib/server.ts';

export interface CatalogArgs {
  /** Events added to the demo's 28 for the large half of the run. */
  events: number;
  connections: number;
  /** Seconds measured per scenario, after a one-second warm-up. */
  durationSeconds: number;
  /**
   * Times each computed request is measured in each half, the scenarios taking turns (1, 2, …, 6, 1,
   * 2, …): its figure is the median. On this VM the same request moves by up to 2× between runs a
   * minute apart; a median of turns spread over the half is not moved by one slow stretch.
   */
  rounds: number;
  /**
   * Times the run goes from the demo to the large catalogue and back (written, then deleted): the
   * demo is measured cycles + 1 times, the large catalogue cycles times, and each side's turns pooled.
   */
  cycles: number;
}

/** Sent with every "computed" request: the server (started with it) then skips its micro-cache. */
const BYPASS_TOKEN = 'catalog-bench-bypass';

import { CACHE_BYPASS_HEADER } from '../src-server/http/public-query-cache.ts';

interface Scenario {
  name: string;
  /** The request the storefront makes for it: before paging (events.list/search) and after. */
  path: { unpaged: string; paged: string };
}

const q = (input: unknown) => `?input=${encodeURIComponent(JSON.stringify(input))}`;
const SCENARIOS: Scenario[] = [
  {
    name: 'home, first request',
    path: { unpaged: '/trpc/events.list', paged: `/trpc/events.home${q({ city: 'Mumbai' })}` },
  },
  {
    name: 'city page (Pune)',
    path: {
      unpaged: `/trpc/events.list${q({ city: 'Pune' })}`,
      paged: `/trpc/events.page${q({ city: 'Pune' })}`,
    },
  },
  // The same city page cut to the demo's Pune (2 events): at 10,000 events the full page has 24 cards
  // and a count where the demo's has 2 and none, so this one shows what the catalogue's size alone costs.
  {
    name: 'city page (Pune), 2 cards',
    path: {
      unpaged: `/trpc/events.list${q({ city: 'Pune' })}`,
      paged: `/trpc/events.page${q({ city: 'Pune', limit: 2 })}`,
    },
  },
  {
    name: 'explore: comedy, all cities',
    path: {
      unpaged: `/trpc/events.list${q({ category: 'comedy' })}`,
      paged: `/trpc/events.page${q({ category: 'comedy' })}`,
    },
  },
  ...['comedy', 'arijit', 'mumbai'].map((text) => ({
    name: `search "${text}"`,
    path: {
      unpaged: `/trpc/events.search${q({ q: text })}`,
      paged: `/trpc/events.searchPage${q({ q: text })}`,
    },
  })),
];

/**
 * Issue 25: the catalogue's requests at the demo's 28 events, then with `events` more (written
 * into the same database while the same server process runs), then at the demo's again (those events
 * deleted), `--cycles` times; answered from the micro-cache and
 * computed (the cache skipped: an unknown query parameter did that before this issue, a bench-only
 * header set through PUBLIC_CACHE_BYPASS_TOKEN does now). Server CPU µs per request and p99, the
 * gzipped and plain bytes of each answer, and the server's RSS after each half, as read and after a full GC.
 * Flags: --events N (10000), --connections N (8), --duration S (3), --rounds N (1), --cycles N (1).
 */
export async function runCatalog(args: CatalogArgs) {
  const server = await startBenchServer({
    SEED_DEMO_DATA: 'true',
    PUBLIC_CACHE_BYPASS_TOKEN: BYPASS_TOKEN,
    TRUST_PROXY: 'true',
  });
  const pid = server.child.pid!;
  try {
    const paged = (await rawGet(server.baseURL, `/trpc/events.page${q({})}`)).status === 200;
    const pathOf = (s: Scenario) => (paged ? s.path.paged : s.path.unpaged);
    const rows: Record<string, string | number>[] = [];
    const summary: Record<string, unknown> = {
      bench: 'catalog',
      api: paged ? 'paged' : 'unpaged',
      events: args.events,
    };

    const phase = async (label: string): Promise<Phase> => {
      const results: Phase['results'] = {};
      const options = {
        connections: args.connections,
        serverPid: pid,
        headers: { 'accept-encoding': 'gzip' },
      };
      // Every request, cached and computed, runs before any is measured: the cached ones measured
      // first in the demo half would otherwise run on code the JIT has seen only hits for, and look
      // dearer in the second half for no reason of size (a control run adding 1 event showed +50 %).
      for (const scenario of SCENARIOS) {
        const url = `${server.baseURL}${pathOf(scenario)}`;
        await measure('warm-up', url, { ...options, durationSeconds: 2 });
        await measure('warm-up', url, { ...bypassing(scenario, options), durationSeconds: 2 });
      }
      for (const scenario of SCENARIOS) {
        const url = `${server.baseURL}${pathOf(scenario)}`;
        const answer = await rawGet(server.baseURL, pathOf(scenario));
        if (answer.status !== 200) throw new Error(`${scenario.name}: status ${answer.status}`);
        await measure('warm-up', url, { ...options, durationSeconds: 1 });
        const cached = await measure(`${label} ${scenario.name}, cached`, url, {
          ...options,
          durationSeconds: args.durationSeconds,
        });
        results[scenario.name] = {
          cached,
          computed: cached,
          computedTurns: [],
          turnResults: [],
          computedNon2xx: 0,
          gzip: answer.bytes,
          plain: answer.plainBytes,
        };
      }
      const turns = new Map<string, LoadResult[]>(SCENARIOS.map((scenario) => [scenario.name, []]));
      for (let round = 1; round <= args.rounds; round += 1) {
        for (const scenario of SCENARIOS) {
          const url = `${server.baseURL}${pathOf(scenario)}`;
          const bypass = bypassing(scenario, options);
          await measure('warm-up', url, { ...bypass, durationSeconds: 1 });
          const turn = await measure(
            `${label} ${scenario.name}, computed${args.rounds > 1 ? ` (round ${round})` : ''}`,
            url,
            { ...bypass, durationSeconds: args.durationSeconds },
          );
          turns.get(scenario.name)!.push(turn);
        }
      }
      for (const scenario of SCENARIOS) {
        const all = turns.get(scenario.name)!;
        const result = results[scenario.name]!;
        result.computed = medianTurn(all);
        result.computedTurns = all.map((t) => t.serverCpuMicrosPerRequest ?? 0);
        result.turnResults = all;
        result.computedNon2xx = all.reduce((sum, t) => sum + t.non2xx, 0);
      }
      const rss = rssMiB(pid);
      return { results, rss, rssAfterGc: await rssAfterGcMiB(server.baseURL) };
    };

    /** Options that skip the micro-cache, from a crowd of addresses (see below). */
    const bypassing = (scenario: Scenario, options: { headers: Record<string, string> }) => {
      let n = 0;
      return {
        ...options,
        headers: { ...options.headers, [CACHE_BYPASS_HEADER]: BYPASS_TOKEN },
        // Before this issue any extra parameter skipped the cache; the header does it now.
        // Many visitors behind the proxy (TRUST_PROXY), as in a rush: the per-client search limit
        // is for one client, not for the crowd this measures.
        setupRequest: (request: { path: string; headers?: Record<string, string> }) => {
          n += 1;
          return {
            ...request,
            path: `${pathOf(scenario)}${pathOf(scenario).includes('?') ? '&' : '?'}_=${n}`,
            headers: {
              ...request.headers,
              'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            },
          };
        },
      } as Parameters<typeof measure>[2];
    };

    // The demo, then the large catalogue and the demo again, `cycles` times (the large one written and
    // deleted in the same database each time). A half measured only once and always second would count
    // whatever the process or the machine drifts by over a run (its heap, the JIT, a slow stretch of
    // the VM) as the catalogue's size: taking turns spreads that over both.
    const demoPhases = [await phase('28')];
    const largePhases: Awaited<ReturnType<typeof phase>>[] = [];
    let fixtureSeconds = 0;
    for (let cycle = 1; cycle <= args.cycles; cycle += 1) {
      const started = performance.now();
      const database = openDatabase(databaseFile(server.dataDir));
      try {
        insertLargeCatalogue(database.db, args.events);
      } finally {
        database.close();
      }
      fixtureSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
      largePhases.push(await phase(String(args.events)));
      const removing = openDatabase(databaseFile(server.dataDir));
      try {
        removeLargeCatalogue(removing.db, args.events);
      } finally {
        removing.close();
      }
      demoPhases.push(await phase('28'));
    }
    const demo = combine(demoPhases);
    const large = combine(largePhases);

    for (const scenario of SCENARIOS) {
      const a = demo.results[scenario.name]!;
      const b = large.results[scenario.name]!;
      rows.push({
        request: scenario.name,
        'cached µs 28': a.cached.serverCpuMicrosPerRequest ?? '',
        [`cached µs ${args.events}`]: b.cached.serverCpuMicrosPerRequest ?? '',
        'computed µs 28': a.computed.serverCpuMicrosPerRequest ?? '',
        [`computed µs ${args.events}`]: b.computed.serverCpuMicrosPerRequest ?? '',
        'computed ratio': ratio(b.computed, a.computed),
        'p99 ms cached/computed (large)': `${b.cached.p99} / ${b.computed.p99}`,
        'gzip bytes 28 → large': `${a.gzip} → ${b.gzip}`,
        'plain bytes large': b.plain,
      });
    }
    console.log(`\nfixture: ${args.events} events written in ${fixtureSeconds} s`);
    report(
      `Catalogue at 28 and ${args.events} events (${args.connections} connections, ${args.durationSeconds} s each${args.rounds > 1 ? `; computed: median of ${args.rounds} rounds` : ''})`,
      rows,
      {
        ...summary,
        rounds: args.rounds,
        cycles: args.cycles,
        fixtureSeconds,
        rssMiB: { demo: demo.rss, large: large.rss, growth: Number((large.rss - demo.rss).toFixed(1)) },
        rssAfterGcMiB: {
          demo: demo.rssAfterGc,
          large: large.rssAfterGc,
          growth: Number((large.rssAfterGc - demo.rssAfterGc).toFixed(1)),
        },
        scenarios: Object.fromEntries(
          SCENARIOS.map((s) => {
            const a = demo.results[s.name]!;
            const b = large.results[s.name]!;
            return [
              s.name,
              {
                cachedMicros: [a.cached.serverCpuMicrosPerRequest, b.cached.serverCpuMicrosPerRequest],
                computedMicros: [a.computed.serverCpuMicrosPerRequest, b.computed.serverCpuMicrosPerRequest],
                computedRatio: ratio(b.computed, a.computed),
                computedTurnsMicros: [a.computedTurns, b.computedTurns],
                p99Ms: { cached: [a.cached.p99, b.cached.p99], computed: [a.computed.p99, b.computed.p99] },
                gzipBytes: [a.gzip, b.gzip],
                non2xx: a.cached.non2xx + a.computedNon2xx + b.cached.non2xx + b.computedNon2xx,
              },
            ];
          }),
        ),
        targets: { computedRatio: 1.5, maxGzipBytes: 64 * 1024, rssGrowthMiB: 50 },
      },
    );
  } finally {
    await server.stop();
  }
}

/** The turn with the median CPU per request (the lower middle one for an even count). */
function medianTurn(turns: LoadResult[]): LoadResult {
  const measured = turns.filter((t) => t.serverCpuMicrosPerRequest !== undefined);
  if (measured.length === 0) return turns[0]!;
  const sorted = measured.sort((x, y) => x.serverCpuMicrosPerRequest! - y.serverCpuMicrosPerRequest!);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function ratio(large: LoadResult, small: LoadResult): number | string {
  if (!large.serverCpuMicrosPerRequest || !small.serverCpuMicrosPerRequest) return '';
  return Number((large.serverCpuMicrosPerRequest / small.serverCpuMicrosPerRequest).toFixed(2));
}

interface Phase {
  results: Record<
    string,
    {
      cached: LoadResult;
      computed: LoadResult;
      computedTurns: number[];
      turnResults: LoadResult[];
      /** Every turn's, not only the median's. */
      computedNon2xx: number;
      gzip: number;
      plain: number;
    }
  >;
  rss: number;
  rssAfterGc: number;
}

/**
 * The phases of one catalogue size as one: each request's computed figure is the median of all its
 * turns in all of them; its cached figure and sizes are the first phase's; RSS the largest read.
 */
function combine(phases: Phase[]): Phase {
  const first = phases[0]!;
  const results: Phase['results'] = {};
  for (const [name, firstResult] of Object.entries(first.results)) {
    const all = phases.flatMap((p) => p.results[name]!.turnResults);
    results[name] = {
      ...firstResult,
      computed: medianTurn(all),
      computedTurns: all.map((t) => t.serverCpuMicrosPerRequest ?? 0),
      turnResults: all,
      computedNon2xx: phases.reduce((sum, p) => sum + p.results[name]!.computedNon2xx, 0),
    };
  }
  return {
    results,
    rss: Math.max(...phases.map((p) => p.rss)),
    rssAfterGc: Math.max(...phases.map((p) => p.rssAfterGc)),
  };
}

/** The server's RSS after a full garbage collection: what it keeps once the answers are sent. */
async function rssAfterGcMiB(baseURL: string): Promise<number> {
  const { rssBytes } = (await (await fetch(`${baseURL}/__bench/bare-gc`)).json()) as { rssBytes: number };
  return Number((rssBytes / 2 ** 20).toFixed(1));
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Number((kib / 1024).toFixed(1));
}

/** One GET as a browser asks it (gzip accepted), with the bytes on the wire and once unzipped. */
function rawGet(
  baseURL: string,
  path: string,
): Promise<{ status: number; bytes: number; plainBytes: number }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path, headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const plain = res.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
          resolve({ status: res.statusCode ?? 0, bytes: body.byteLength, plainBytes: plain.byteLength });
        });
      })
      .on('error', reject);
  });
}
