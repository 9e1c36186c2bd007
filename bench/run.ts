import { execFileSync } from 'node:child_process';
import { reportBundleSize } from '../scripts/report-bundle-size.ts';
import { runCatalog } from './catalog.ts';
import { runCatalogThroughput } from './catalog-throughput.ts';
import { runFlashSale } from './flash-sale.ts';
import { runFlashSalePostgres } from './flash-sale-postgres.ts';
import { runGateBenchmark } from './gate.ts';
import { runHotPaths } from './hot-paths.ts';
import { runLighthouse } from './lighthouse.ts';
import { runPageCpu } from './page-cpu.ts';
import { runPdfHealthz } from './pdf-healthz.ts';
import { runReserveBenchmark } from './reserve.ts';
import { runTestSuite } from './test-suite.ts';
import { runWaitingRoomBenchmark } from './waiting-room.ts';

/**
 * `npm run bench -- <name> [--flag value ...]`; without a name every benchmark runs in turn.
 * Results are printed as tables; docs/benchmarks.md records them with the machine they ran on.
 */
const BENCHMARKS: Record<string, (flags: Flags) => Promise<unknown>> = {
  catalog: (flags) =>
    runCatalog({
      events: flags.number('events', 10_000),
      connections: flags.number('connections', 8),
      durationSeconds: flags.number('duration', 3),
      rounds: flags.number('rounds', 1),
      cycles: flags.number('cycles', 1),
    }),
  'catalog-throughput': (flags) =>
    runCatalogThroughput({
      connections: flags.number('connections', 64),
      durationSeconds: flags.number('duration', 10),
      workers: flags.number('workers', 1),
    }),
  'flash-sale': (flags) =>
    flags.string('engine', 'sqlite') === 'postgres'
      ? runFlashSalePostgres({
          buyers: flags.number('buyers', 5000),
          seats: flags.number('seats', 500),
          connections: flags.number('connections', 64),
          durationSeconds: flags.number('duration', 10),
          servers: flags.number('servers', 3),
          databaseUrl: flags.string('database-url', ''),
          poolSize: flags.number('pool-size', 0),
          sustainedBuyers: flags.number('sustained-buyers', 40_000),
          spreadTypes: flags.number('spread-types', 8),
          lockSeconds: flags.has('no-lock-timing') ? 0 : flags.number('lock-seconds', 5),
          postgresLog: flags.string('postgres-log', ''),
        })
      : runFlashSale({
          buyers: flags.number('buyers', 5000),
          seats: flags.number('seats', 500),
          connections: flags.number('connections', 64),
          durationSeconds: flags.number('duration', 10),
          workers: flags.number('workers', 1),
          boxOffice: flags.has('box-office'),
          rounds: flags.number('rounds', 3),
        }),
  'hot-paths': (flags) =>
    runHotPaths({
      buyers: flags.number('buyers', 2000),
      pastHolds: flags.number('past-holds', 300),
      connections: flags.number('connections', 32),
      durationSeconds: flags.number('duration', 10),
      only: flags.string('only', '').split(',').filter(Boolean),
    }),
  lighthouse: (flags) =>
    runLighthouse({
      runs: flags.number('runs', 3),
      events: flags.number('events', 0),
      mobileOnly: flags.has('mobile'),
    }),
  'page-cpu': (flags) => runPageCpu({ loads: flags.number('loads', 7), tasks: flags.has('tasks') }),
  bundle: async () => {
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { stdio: 'ignore' });
    return reportBundleSize();
  },
  reserve: (flags) => runReserveBenchmark({ ops: flags.number('ops', 2000) }),
  gate: (flags) =>
    runGateBenchmark({
      gates: flags.number('gates', 20),
      scans: flags.number('scans', 5000),
      tickets: flags.number('tickets', 50_000),
    }),
  'waiting-room': (flags) =>
    runWaitingRoomBenchmark({
      visitors: flags.number('visitors', 100_000),
      connections: flags.number('connections', 32),
      durationSeconds: flags.number('duration', 10),
      draws: flags.number('draws', 200),
    }),
  'test-suite': (flags) => runTestSuite({ runs: flags.number('runs', 2), only: flags.string('only', '') }),
  'pdf-healthz': (flags) =>
    runPdfHealthz({ pdfs: flags.number('pdfs', 20), probes: flags.number('probes', 50) }),
};

interface Flags {
  number: (name: string, fallback: number) => number;
  string: (name: string, fallback: string) => string;
  /** A switch given without a value (`--box-office`). */
  has: (name: string) => boolean;
}

function parseFlags(argv: string[]): Flags {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) values.set(arg.slice(2), argv[i + 1] ?? '');
  }
  return {
    number: (name, fallback) => {
      const value = Number(values.get(name));
      return Number.isFinite(value) && value > 0 ? value : fallback;
    },
    string: (name, fallback) => values.get(name) ?? fallback,
    has: (name) => values.has(name),
  };
}

const [name, ...rest] = process.argv.slice(2);
// The test suite's timing runs the whole suite several times: only when asked for by name.
const BY_NAME_ONLY = new Set(['test-suite']);
const selected =
  name && !name.startsWith('--') ? [name] : Object.keys(BENCHMARKS).filter((key) => !BY_NAME_ONLY.has(key));
const flags = parseFlags(name?.startsWith('--') ? [name, ...rest] : rest);
for (const key of selected) {
  const bench = BENCHMARKS[key];
  if (!bench) {
    console.error(`Unknown benchmark '${key}'. Available: ${Object.keys(BENCHMARKS).join(', ')}`);
    process.exit(1);
  }
  console.log(`\n== ${key} ==`);
  await bench(flags);
}
