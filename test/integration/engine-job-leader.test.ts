import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pgJobLeadership } from '../../src-server/db/engine/pg-job-leader.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import type { AppDeps } from '../../src-server/deps.ts';
import { startBackgroundJobs } from '../../src-server/jobs.ts';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/test-postgres.ts';

// Issue 38: with several servers on one PostgreSQL, each background job runs on exactly one of them at a
// time (an advisory lock per job, ADR 0035), and when the leader dies another takes over.

const serverUrl = testPostgresUrl('engine-job-leader.test.ts');
const TICK_MS = 10;
const deps = { env: { JOB_INTERVAL_MS: TICK_MS }, logger: { error() {} } } as unknown as AppDeps;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  server: number;
  start: number;
  end: number;
}

describe.skipIf(serverUrl === undefined)('background jobs across three servers on one PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  const servers: { db: PgDb; leadership: ReturnType<typeof pgJobLeadership>; stop: () => void }[] = [];
  const runs: Run[] = [];
  // A killed process runs nothing more, not even the tick it was in: stop() only clears the timers, so a
  // tick already past its leadership check would still finish and be counted without this.
  const killed = new Set<number>();

  beforeAll(async () => {
    fresh = await freshPostgresDatabase(serverUrl as string, { poolSize: 2 });
    for (let server = 0; server < 3; server++) {
      const db = await openPostgres(fresh.url, { poolSize: 3 });
      const leadership = pgJobLeadership(db.$client);
      const job = {
        name: 'hold-sweeper',
        intervalMs: TICK_MS,
        run: async () => {
          if (killed.has(server)) return;
          const start = performance.now();
          await sleep(5);
          if (!killed.has(server)) runs.push({ server, start, end: performance.now() });
        },
      };
      const { stop } = startBackgroundJobs(deps, [job], leadership.leads);
      servers.push({ db, leadership, stop });
    }
  });

  afterAll(async () => {
    for (const s of servers) {
      s.stop();
      await s.leadership.close();
      await s.db.$client.end();
    }
    await fresh?.drop();
  });

  it('one server runs the job; its runs never overlap another server’s', async () => {
    // Waited for, not slept: a loaded CI machine ticks less often than every 10 ms.
    await vi.waitFor(() => expect(runs.length).toBeGreaterThan(5), { timeout: 5_000, interval: 20 });
    const leaders = new Set(runs.map((r) => r.server));
    expect(runs.length).toBeGreaterThan(5);
    expect(leaders.size).toBe(1);
  });

  it('when the leader dies (its connection cut, as a killed process), another server takes over, never side by side', async () => {
    const [leader] = new Set(runs.map((r) => r.server));
    // The process is gone: its timers stop and PostgreSQL ends its session, releasing the lock.
    killed.add(leader!);
    servers[leader!]!.stop();
    // pg_locks is the whole server's: other test files hold advisory locks in their own databases at the
    // same moment (CI failed once on two rows), so only this database's locks are the leader's.
    const { rows } = await fresh.db.$client.query<{ pid: number }>(
      `select l.pid from pg_locks l join pg_database d on d.oid = l.database
        where l.locktype = 'advisory' and l.granted and d.datname = current_database()`,
    );
    expect(rows).toHaveLength(1);
    await fresh.db.$client.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    const before = runs.length;
    await vi.waitFor(() => expect(runs.length - before).toBeGreaterThan(5), { timeout: 5_000, interval: 20 });
    const after = runs.slice(before);
    expect(after.every((r) => r.server !== leader)).toBe(true);
    // No two runs of different servers overlap in time.
    const sorted = [...runs].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.server !== sorted[i - 1]!.server)
        expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
    }
  });
});

describe.skipIf(serverUrl === undefined)('a server asking about all its jobs at once', () => {
  it('asks one question at a time on the lead’s connection, and leads each job', async () => {
    const fresh = await freshPostgresDatabase(serverUrl as string, { poolSize: 2 });
    const leadership = pgJobLeadership(fresh.db.$client);
    // node-postgres answers a second query sent while one is running, but deprecates it (pg 9 refuses).
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      // Every job of a server ticks at start: eleven questions at the same moment, twice.
      const jobs = Array.from({ length: 11 }, (_, i) => `job-${i}`);
      expect(await Promise.all(jobs.map((job) => leadership.leads(job)))).toEqual(jobs.map(() => true));
      expect(await Promise.all(jobs.map((job) => leadership.leads(job)))).toEqual(jobs.map(() => true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await leadership.close();
      await fresh.drop();
    }
  });
});
