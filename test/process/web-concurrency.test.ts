import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { holds } from '../../src-server/db/schema/payments.ts';
import {
  FAULT_APP_SECRET,
  faultDataDir,
  proceedOn,
  proceedOrFail,
  signedInBuyer,
  waitUntil,
} from '../helpers/fault-process.ts';
import { countOf, createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { allowLocalServers } from '../mocks/server.ts';

/**
 * Issue 6, WEB_CONCURRENCY (docs/decisions/0009-web-concurrency.md): the real server started with two
 * worker processes on one port and one SQLite file. Which process answered is read from the OS (the
 * primary's child processes) and from the workers' own JSON logs (pino writes each line with its pid).
 */

beforeEach(allowLocalServers);

const started = new Set<ServerProcess>();

async function startTwoWorkers(dataDir: string): Promise<ServerProcess> {
  allowLocalServers();
  const server = await startServerProcess({
    dataDir,
    env: {
      WEB_CONCURRENCY: '2',
      SEED_DEMO_DATA: 'false',
      APP_SECRET: FAULT_APP_SECRET,
      JOB_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
    },
  });
  started.add(server);
  server.child.once('exit', () => started.delete(server));
  // /healthz answers once the first worker listens; wait for both.
  await waitUntil(
    () => listeningPids(server).length === 2 && sameSet(workerPids(server), listeningPids(server)),
    'two workers listening',
    () => server.output(),
  );
  return server;
}

interface LogLine {
  pid: number;
  msg: string;
  worker?: number;
  runsJobs?: boolean;
  path?: string;
}

function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function listeningPids(server: ServerProcess): number[] {
  return logLines(server)
    .filter((l) => l.msg.startsWith('Jalsa is listening'))
    .map((l) => l.pid);
}

/**
 * The primary's live child processes that run this Node binary (tsx also starts an esbuild helper,
 * which is not a worker). Told apart by the executable, not the process name: Node 24 names its main
 * thread 'MainThread' and Node 26 'node-MainThread', where Node 22 says 'node'.
 */
function workerPids(server: ServerProcess): number[] {
  const primary = server.child.pid!;
  const children = readdirSync(`/proc/${primary}/task`).flatMap((task) =>
    readFileSync(`/proc/${primary}/task/${task}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  );
  return children.filter((pid) => isAlive(pid) && executableOf(pid) === NODE_BINARY);
}

const NODE_BINARY = realpathSync(process.execPath);

function executableOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/** Signal 0 checks that the process exists; a zombie (exited, not yet reaped) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function sameSet(a: number[], b: number[]) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** The pid of the worker that said it runs the background jobs, latest first. */
function jobPids(server: ServerProcess): number[] {
  return logLines(server)
    .filter((l) => l.msg === 'worker started' && l.runsJobs === true)
    .map((l) => l.pid);
}

/**
 * Freezes a worker, then moves the hold's expiry into the past. A worker frozen in the middle of a
 * write (its sweeper runs every 200 ms) keeps the write lock until it is thawed: then it is thawed,
 * let finish, and frozen again.
 */
async function stoppedWithHoldExpired(pid: number, database: DatabaseHandle, holdId: string) {
  for (let attempt = 1; ; attempt += 1) {
    process.kill(pid, 'SIGSTOP');
    database.sqlite.pragma('busy_timeout = 1000');
    try {
      expireHold(database, holdId);
      return;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('database is locked')) throw error;
      process.kill(pid, 'SIGCONT');
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      database.sqlite.pragma('busy_timeout = 5000');
    }
  }
}

/** Moves one hold's expiry into the past from the test's own connection, as time passing would. */
function expireHold(database: DatabaseHandle, holdId: string) {
  const past = new Date(Date.now() - 60_000).toISOString();
  database.db
    .update(holds)
    .set({ expiresAt: past, sessionExpiresAt: past })
    .where(eq(holds.id, holdId))
    .run();
}

function holdStatus(database: DatabaseHandle, holdId: string) {
  return database.db.select({ status: holds.status }).from(holds).where(eq(holds.id, holdId)).get()?.status;
}

async function healthy(server: ServerProcess, requests: number) {
  const answers = await Promise.all(
    Array.from({ length: requests }, () => fetch(`${server.baseURL}/healthz`).then((r) => r.status)),
  );
  return answers.every((status) => status === 200);
}

describe('WEB_CONCURRENCY=2: two workers on one port and one database file', () => {
  let scratch: ReturnType<typeof faultDataDir>;
  let database: DatabaseHandle;
  let server: ServerProcess;

  beforeAll(async () => {
    scratch = faultDataDir();
    database = scratch.database;
    server = await startTwoWorkers(scratch.dataDir);
  }, 90_000);

  afterAll(async () => {
    await server?.stop('SIGTERM');
    scratch?.remove();
  }, 30_000);

  it('runs two node worker processes under the primary, both serving', async () => {
    const pids = workerPids(server);
    expect(pids).toHaveLength(2);
    expect(pids).not.toContain(server.child.pid);
    expect(await healthy(server, 8)).toBe(true);
    // Exactly one of them announced that it runs the background jobs.
    expect(jobPids(server)).toHaveLength(1);
    expect(pids).toContain(jobPids(server)[0]);
  });

  it('holds exactly the seats there are when buyers race across both workers', async () => {
    const ev = createTicketedEvent(database.db, {
      now: new Date(),
      types: [{ name: 'Fan Pit', pricePaise: 250_000, totalTickets: 5 }],
    });
    const buyers = Array.from({ length: 30 }, () => signedInBuyer(database));
    const answers = await Promise.all(buyers.map((b) => proceedOn(server, b.cookie, ev, 1)));

    const held = answers.filter((a) => a.status === 200);
    expect(held).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(['Fan Pit: Sold Out', 'Insufficient tickets available for Fan Pit']).toContain(
        refused.error?.message,
      );
    }
    const count = countOf(database.db, ev.ticketTypeIds[0]!);
    expect(count).toMatchObject({ total: 5, available: 0, held: 5, sold: 0 });
    expectInventoryInvariant(database.db, ev.ticketTypeIds);

    // Both workers answered some of the reservations (each request's log line carries its process id).
    // Workers write their log in blocks at least every quarter second: wait for the lines.
    const servedBy = () =>
      new Set(
        logLines(server)
          .filter((l) => l.msg === 'request' && l.path === '/trpc/payments.start')
          .map((l) => l.pid),
      );
    await waitUntil(
      () => servedBy().size >= workerPids(server).length,
      "both workers' request lines",
      () => server.output(),
    );
    expect([...servedBy()].sort()).toEqual(workerPids(server).sort());
  }, 60_000);

  it('runs the background jobs in exactly one worker', async () => {
    const [jobsPid] = jobPids(server);
    expect(jobsPid).toBeDefined();
    const ev = createTicketedEvent(database.db, { now: new Date() });
    const buyer = signedInBuyer(database);
    const { holdId } = await proceedOrFail(server, buyer.cookie, ev);

    // Freeze the worker that runs the jobs, then let the hold expire: the other worker runs no sweeper,
    // so the hold stays active however many job intervals (200 ms) pass.
    await stoppedWithHoldExpired(jobsPid!, database, holdId);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(holdStatus(database, holdId)).toBe('active');
    } finally {
      process.kill(jobsPid!, 'SIGCONT');
    }
    // Thawed, its sweeper releases the hold and puts the seat back.
    await waitUntil(
      () => holdStatus(database, holdId) === 'released',
      'the sweeper',
      () => server.output(),
    );
    expect(countOf(database.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 50, held: 0 });
    // The sweeper logs after its commit, and the line reaches us through a pipe: wait for it.
    const sweeps = () => logLines(server).filter((l) => l.msg === 'expired holds released');
    await waitUntil(
      () => sweeps().length > 0,
      'the sweep in the log',
      () => server.output(),
    );
    expect(new Set(sweeps().map((l) => l.pid))).toEqual(new Set([jobsPid]));
  }, 60_000);

  it('replaces a worker killed with SIGKILL, jobs included, and keeps answering', async () => {
    const [jobsPid] = jobPids(server);
    const before = workerPids(server);
    process.kill(jobsPid!, 'SIGKILL');

    await waitUntil(
      () => {
        const now = workerPids(server);
        return now.length === 2 && !now.includes(jobsPid!) && jobPids(server).length === 2;
      },
      'a replacement worker',
      () => server.output(),
    );
    const after = workerPids(server);
    const replacement = jobPids(server)[1]!;
    expect(after).toContain(replacement);
    expect(after).toContain(before.find((pid) => pid !== jobsPid));
    expect(logLines(server).some((l) => l.msg === 'worker exited unexpectedly: replacing it')).toBe(true);
    await waitUntil(() => listeningPids(server).includes(replacement), 'the replacement to listen');
    expect(await healthy(server, 8)).toBe(true);

    // The replacement took over the jobs: a hold that expires now is released by it.
    const ev = createTicketedEvent(database.db, { now: new Date() });
    const { holdId } = await proceedOrFail(server, signedInBuyer(database).cookie, ev);
    expireHold(database, holdId);
    await waitUntil(
      () => holdStatus(database, holdId) === 'released',
      'the new sweeper',
      () => server.output(),
    );
    // The sweeper logs after its commit, and the line reaches us through a pipe: wait for it.
    await waitUntil(
      () => logLines(server).some((l) => l.msg === 'expired holds released' && l.pid === replacement),
      "the replacement's sweep in the log",
      () => server.output(),
    );
    const sweepers = logLines(server)
      .filter((l) => l.msg === 'expired holds released')
      .map((l) => l.pid);
    expect(sweepers.filter((pid) => pid !== jobsPid && pid !== replacement)).toEqual([]);
    expectInventoryInvariant(database.db);
  }, 60_000);
});

describe('WEB_CONCURRENCY=2: stopping', () => {
  let scratch: ReturnType<typeof faultDataDir>;

  beforeAll(() => {
    scratch = faultDataDir();
  });

  afterAll(async () => {
    await Promise.all([...started].map((s) => s.stop('SIGKILL')));
    scratch?.remove();
  }, 30_000);

  it('SIGTERM on the primary stops every worker, then the primary exits 0', async () => {
    const server = await startTwoWorkers(scratch.dataDir);
    const pids = workerPids(server);
    expect(pids).toHaveLength(2);
    await server.signalMainProcess('SIGTERM');
    expect(server.child.exitCode).toBe(0);
    for (const pid of pids) expect(isAlive(pid), `worker ${pid}`).toBe(false);
    expect(logLines(server).filter((l) => l.msg === 'shutting down')).toHaveLength(2);
  }, 90_000);

  it('SIGKILL on the primary: the workers exit by themselves', async () => {
    const server = await startTwoWorkers(scratch.dataDir);
    const pids = workerPids(server);
    expect(pids).toHaveLength(2);
    await server.signalMainProcess('SIGKILL');
    const deadline = Date.now() + 10_000;
    while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    for (const pid of pids) expect(isAlive(pid), `worker ${pid}`).toBe(false);
  }, 90_000);
});
