import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Db, databaseFile, openDatabase } from '../../src-server/db/client.ts';
import { moveToPostgres } from '../../src-server/db/move-to-postgres.ts';
import type { BenchEvent, InventoryRow } from './fixtures.ts';
import { processCpuMicros } from './load.ts';
import { type BenchServer, startBenchServer } from './server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The PostgreSQL server the bench makes its scratch database on: `--database-url`, else
 * TEST_DATABASE_URL, else the test PostgreSQL that scripts/start-test-postgres.sh starts (or finds).
 */
export function benchPostgresServerUrl(given: string): string {
  if (given) return given;
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  return execFileSync('bash', [path.join(ROOT, 'scripts/start-test-postgres.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

/** Every server of one installation signs with the same secret (docs/operations.md). */
const BENCH_APP_SECRET = 'bench-app-secret-0123456789abcdef0123456789abcdef';

export interface ScratchBenchDatabase<T> {
  /** What `build` returned (the events and the buyers' cookies). */
  fixtures: T;
  url: string;
  name: string;
  drop: () => Promise<void>;
}

/**
 * A scratch database on the server holding the bench's buyers and events: written by the same fixture
 * code as the SQLite bench (bench/lib/fixtures.ts) into a migrated SQLite file, then copied as an
 * operator's `npm run db:move-to-postgres` copies an installation (every table, the inventory invariant
 * checked), so both engines start from the same rows.
 */
export async function scratchBenchDatabase<T>(
  serverUrl: string,
  build: (db: Db) => T | Promise<T>,
): Promise<ScratchBenchDatabase<T>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'jalsa-bench-pg-fixtures-'));
  const name = `jalsa_bench_${randomBytes(6).toString('hex')}`;
  try {
    const handle = openDatabase(databaseFile(dir));
    let fixtures: T;
    try {
      fixtures = await build(handle.db);
      handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      handle.close();
    }
    await admin(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await moveToPostgres({
      sqliteFile: databaseFile(dir),
      databaseUrl: url.toString(),
      appSecret: BENCH_APP_SECRET,
    });
    return {
      fixtures,
      url: url.toString(),
      name,
      drop: async () => {
        await admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * `count` app processes in production mode (bench/lib/serve.ts, one process each, on its own port),
 * all on the one PostgreSQL database, as a site behind a load balancer runs them.
 */
export async function startPostgresServers(
  url: string,
  count: number,
  poolSize: number,
): Promise<BenchServer[]> {
  const servers: BenchServer[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      servers.push(
        await startBenchServer({
          WEB_CONCURRENCY: '1',
          DATABASE_URL: url,
          // 0: the app's own default.
          ...(poolSize > 0 && { DATABASE_POOL_SIZE: String(poolSize) }),
          APP_SECRET: BENCH_APP_SECRET,
          SEED_DEMO_DATA: 'false',
        }),
      );
    }
    return servers;
  } catch (error) {
    for (const server of servers) await server.stop();
    throw error;
  }
}

/**
 * PostgreSQL's own CPU for the bench: the backends serving the bench's database (its pids in
 * pg_stat_activity, read from /proc), before and after. The server's shared processes (checkpointer,
 * WAL writer, autovacuum) also serve the other databases on a shared test server and are left out.
 */
export function postgresCpuMeter(serverUrl: string, databaseName: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  const ready = client.connect();
  const backends = async () => {
    await ready;
    const result = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [databaseName],
    );
    return result.rows.map((row) => row.pid);
  };
  return {
    /** Starts a measurement; its `stop()` answers the backends' CPU time since, in microseconds. */
    async start() {
      const before = new Map((await backends()).map((pid) => [pid, processCpuMicros(pid)]));
      return {
        async stop() {
          let micros = 0;
          for (const pid of new Set([...before.keys(), ...(await backends())])) {
            // A backend gone in between reads 0 (its time since `before` is lost: pools keep theirs).
            const now = processCpuMicros(pid);
            micros += Math.max(0, now - (before.get(pid) ?? 0));
          }
          return micros;
        },
      };
    },
    query: async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
      await ready;
      return (await client.query<R>(text, values)).rows;
    },
    close: () => client.end(),
  };
}

/** Per ticket type on PostgreSQL, in one snapshot: available + seats in active holds + sold = total. */
export async function inventoryOnPostgres(url: string, event: BenchEvent): Promise<InventoryRow[]> {
  return admin(url, async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const rows: InventoryRow[] = [];
      for (const t of event.ticketTypes) {
        const type = (
          await client.query<{ total: number; available: number }>(
            'select total_tickets as total, available_tickets as available from ticket_types where id = $1',
            [t.id],
          )
        ).rows[0]!;
        const held = Number(
          (
            await client.query<{ n: string }>(
              `select coalesce(sum(i.quantity), 0) as n from hold_items i join holds h on h.id = i.hold_id
               where h.status = 'active' and i.ticket_type_id = $1`,
              [t.id],
            )
          ).rows[0]!.n,
        );
        const sold = Number(
          (
            await client.query<{ n: string }>(
              `select coalesce(sum((l->>'quantity')::int), 0) as n
               from bookings b, jsonb_array_elements(b.ticket_types) l where l->>'id' = $1`,
              [t.id],
            )
          ).rows[0]!.n,
        );
        rows.push({
          ticketTypeId: t.id,
          name: t.name,
          total: type.total,
          available: type.available,
          held,
          sold,
          invariant: type.available >= 0 && type.available + held + sold === type.total,
        });
      }
      return rows;
    } finally {
      await client.query('COMMIT');
    }
  });
}

/**
 * The server's log file, where `scripts/start-test-postgres.sh` writes it (beside the data directory),
 * or undefined when it is not readable from here (another server: pass --postgres-log).
 */
export async function postgresLogFile(serverUrl: string, given: string): Promise<string | undefined> {
  if (given) return given;
  const dataDirectory = await admin(
    serverUrl,
    async (client) =>
      (await client.query<{ d: string }>("select current_setting('data_directory') as d")).rows[0]!.d,
  );
  const file = path.join(path.dirname(dataDirectory), 'server.log');
  try {
    statSync(file);
    return file;
  } catch {
    return undefined;
  }
}

/**
 * Statement timing for the bench's database only (`ALTER DATABASE … SET log_min_duration_statement =
 * 0`): every statement of its new sessions is logged with its duration, the server's log line prefix
 * giving the time (ms) and the backend's pid. The pools' connections predate the setting, so the
 * caller lets them go idle past pg.Pool's 10 s idle timeout first (they then reconnect with it).
 */
export async function statementLogging(serverUrl: string, databaseName: string, on: boolean) {
  await admin(serverUrl, (client) =>
    client.query(
      on
        ? `ALTER DATABASE "${databaseName}" SET log_min_duration_statement = 0`
        : `ALTER DATABASE "${databaseName}" RESET log_min_duration_statement`,
    ),
  );
}

export function logSize(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

function readFrom(file: string, offset: number): string {
  const size = logSize(file);
  const buffer = Buffer.alloc(Math.max(0, size - offset));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, offset);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

export interface LockTiming {
  /** Holds whose conditional UPDATE and COMMIT were both logged by one backend. */
  holds: number;
  /** From the end of the UPDATE of the type's row (the row lock taken) to the end of the COMMIT. */
  heldMeanMs: number;
  heldP50Ms: number;
  heldP99Ms: number;
  /** The UPDATE's own duration, the wait for the row lock included. */
  updateMeanMs: number;
  /** Of the time held: the statements' own durations after the UPDATE, and the gaps between them. */
  statementsAfterUpdateMeanMs: number;
  statementsAfterUpdate: number;
  /** Backends of the database whose statements were logged. */
  backends: number;
}

const LOG_LINE =
  /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \S+ \[(\d+)\] LOG: {2}duration: ([\d.]+) ms {2}(statement|(?:parse|bind|execute) [^:]*): (.*)$/;

/**
 * How long each hold keeps the ticket type's row locked, from the statement log written since `offset`:
 * per backend, from the UPDATE that takes the seats (the row lock is taken there and kept to the end
 * of the transaction) to that transaction's COMMIT.
 */
export function lockTimingFromLog(file: string, offset: number, pids: Set<number>): LockTiming {
  const open = new Map<number, { at: number; after: number; statements: number }>();
  const held: number[] = [];
  const updates: number[] = [];
  const after: number[] = [];
  const afterCounts: number[] = [];
  const seen = new Set<number>();
  for (const line of readFrom(file, offset).split('\n')) {
    const m = LOG_LINE.exec(line);
    if (!m) continue;
    const pid = Number(m[2]);
    if (!pids.has(pid)) continue;
    seen.add(pid);
    const at = Date.parse(`${m[1]!.replace(' ', 'T')}Z`);
    const duration = Number(m[3]);
    const text = m[5]!.trim().toLowerCase();
    if (m[4]!.startsWith('execute') && /^update "ticket_types" set "available_tickets" = .*-/.test(text)) {
      open.set(pid, { at, after: 0, statements: 0 });
      updates.push(duration);
    } else if (text === 'commit' || text === 'rollback') {
      const o = open.get(pid);
      if (o) {
        held.push(at - o.at);
        after.push(o.after + duration);
        afterCounts.push(o.statements + 1);
      }
      open.delete(pid);
    } else {
      const o = open.get(pid);
      if (o) {
        o.after += duration;
        if (m[4]!.startsWith('execute') || m[4] === 'statement') o.statements += 1;
      }
    }
  }
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const sorted = [...held].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  const round = (x: number) => Number(x.toFixed(2));
  return {
    holds: held.length,
    heldMeanMs: round(mean(held)),
    heldP50Ms: at(0.5),
    heldP99Ms: at(0.99),
    updateMeanMs: round(mean(updates)),
    statementsAfterUpdateMeanMs: round(mean(after)),
    statementsAfterUpdate: round(mean(afterCounts)),
    backends: seen.size,
  };
}
