import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PG_MIGRATIONS_FOLDER } from '../../src-server/db/engine/postgres.ts';
import { HEALTHY } from '../../src-server/http/health-check.ts';
import { BACKGROUND_JOBS } from '../../src-server/jobs.ts';
import { FAULT_APP_SECRET, waitUntil } from '../helpers/fault-process.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { storefront } from '../helpers/storefront-http.ts';
import { type ScratchPostgres, scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { allowLocalServers } from '../mocks/server.ts';

// Issue 38, ADR 0035: the real server started with DATABASE_URL runs on PostgreSQL, and two of them on
// one database are one site: either answers for what the other wrote, and each background job runs on
// exactly one of them (its advisory-lock leader), passing to the other when that one stops.

const ROOT = path.resolve(import.meta.dirname, '../..');
const serverUrl = testPostgresUrl('postgres-servers.test.ts');
const JOBS = BACKGROUND_JOBS.map((job) => job.name);

beforeEach(allowLocalServers);

interface LogLine {
  msg: string;
  job?: string;
  err?: { message: string };
}

function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Every run of a job that threw, as "job: message". */
function jobFailures(server: ServerProcess): string[] {
  return logLines(server)
    .filter((line) => line.msg === 'background job failed')
    .map((line) => `${line.job}: ${line.err?.message}`);
}

/** The jobs a server has taken the lead of and not given up since, read from its own log. */
function jobsLedBy(server: ServerProcess): Set<string> {
  const led = new Set<string>();
  for (const line of logLines(server)) {
    if (line.msg === 'this server now runs the job') led.add(line.job!);
    if (line.msg === 'this server no longer runs the job') led.delete(line.job!);
  }
  return led;
}

describe.skipIf(serverUrl === undefined)('servers on PostgreSQL (DATABASE_URL)', { timeout: 120_000 }, () => {
  let database: ScratchPostgres;
  const folders: string[] = [];
  const servers: ServerProcess[] = [];

  async function startOn(url: string): Promise<ServerProcess> {
    allowLocalServers();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-pg-server-'));
    folders.push(dataDir);
    const server = await startServerProcess({
      dataDir,
      env: {
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: '4',
        // Every server of one installation signs with the same secret (docs/operations.md).
        APP_SECRET: FAULT_APP_SECRET,
        SEED_DEMO_DATA: 'true',
        JOB_INTERVAL_MS: '200',
        LOG_LEVEL: 'info',
      },
    });
    servers.push(server);
    return server;
  }

  /** `npm run <script> -- args` as an operator runs it beside a server: the same DATABASE_URL. */
  async function npmRun(script: string, args: string[], url: string) {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, script), ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, DATABASE_URL: url, DATA_DIR: folders[0]!, NODE_ENV: 'test' },
      },
    );
    return stdout + stderr;
  }

  let first: ServerProcess;
  /** The published event of the second case, bought from again in the third. */
  let onSale: Awaited<ReturnType<ReturnType<typeof storefront>['publishEvent']>>;
  beforeAll(async () => {
    database = await scratchPostgres(serverUrl!, 'jalsa_servers');
    first = await startOn(database.url);
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await database?.drop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('starts on the empty database: migrations applied, health answered, no demo data', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const journal = JSON.parse(
        readFileSync(path.join(PG_MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
      ) as {
        entries: unknown[];
      };
      const applied = await client.query<{ n: string }>(
        'select count(*) as n from drizzle.__drizzle_migrations',
      );
      expect(Number(applied.rows[0]!.n)).toBe(journal.entries.length);
      const events = await client.query<{ n: string }>('select count(*) as n from events');
      expect(Number(events.rows[0]!.n)).toBe(0);
    } finally {
      await client.end();
    }
    const health = await fetch(`${first.baseURL}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual(HEALTHY);
    // Waited for: the server writes its log in blocks, at least every quarter second (logger.ts).
    await vi.waitFor(
      () =>
        expect(logLines(first).map((line) => line.msg)).toContain(
          'PostgreSQL (DATABASE_URL): starting without demo data, which is added on SQLite only',
        ),
      { timeout: 5_000, interval: 50 },
    );
  });

  it('signs a buyer up and in, and lists an organiser’s published event on the home page and its own page', async () => {
    const site = storefront((pathname, init) => fetch(`${first.baseURL}${pathname}`, init), first.baseURL);
    const buyer = await site.signUpAndSignIn('Asha Verma', 'asha@example.in');
    expect(buyer.me).toMatchObject({ email: 'asha@example.in' });

    // The organiser: an account made an organiser by the operator's command, on the same database.
    const organiser = await site.signUpAndSignIn('Ravi Rao', 'ravi@example.in');
    expect(await npmRun('scripts/user-role.ts', ['ravi@example.in', 'organiser'], database.url)).toContain(
      'is now an organiser',
    );
    onSale = await site.publishEvent(organiser.cookie, 'Opening Night', 'Pune');
    const { eventId } = onSale;

    expect(await site.homeEventIds('Pune')).toContain(eventId);
    const page = await site.eventPage(eventId);
    expect(page.status).toBe(200);
    expect(page.data.name).toBe('Opening Night');
    expect(JSON.stringify(page.data.tickets)).toContain('"name":"Gold"');
    const found = await site.ok<{ id: string }[]>('query', 'events.search', { q: 'opening' });
    expect(found.data.map((e) => e.id)).toEqual([eventId]);
    // The operator's other commands reach the same database.
    expect(await npmRun('scripts/user-verify.ts', ['asha@example.in'], database.url)).toContain(
      'is now verified',
    );
    expect(
      await npmRun('scripts/user-staff.ts', ['asha@example.in', '--event', eventId], database.url),
    ).toContain('is now gate staff');
    expect(await npmRun('src-server/db/migrate-cli.ts', [], database.url)).toMatch(
      /^Migrated postgres:\/\//m,
    );
    // The checkout page's first read: what is on sale, for a signed-in buyer.
    const options = await site.call<{ event: { id: string } }>(
      'query',
      'tickets.options',
      { eventId },
      buyer.cookie,
    );
    expect(options.status).toBe(200);
    expect(options.data.event.id).toBe(eventId);

    // The purchase: Proceed, the simulator's Pay, the checkout's confirm callback, then the booking in
    // My Bookings with its ticket and QR, and two seats fewer on sale.
    const { started, paid, confirmed } = await site.buy(buyer.cookie, onSale, 2);
    expect(started.status, JSON.stringify(started.error)).toBe(200);
    expect(paid?.status).toBe(200);
    expect(confirmed?.status, JSON.stringify(confirmed?.error)).toBe(200);
    expect(confirmed?.data.outcome).toBe('booked');
    const bookingId = confirmed!.data.bookingId!;
    const mine = await site.ok<{ id: string }[]>('query', 'bookings.mine', undefined, buyer.cookie);
    expect(mine.data.map((b) => b.id)).toEqual([bookingId]);
    const ticket = await site.ok<{ status: string; qrToken: string }>(
      'query',
      'bookings.byId',
      { bookingId },
      buyer.cookie,
    );
    expect(ticket.data.status).toBe('confirmed');
    expect(ticket.data.qrToken.length).toBeGreaterThan(10);
    expect(JSON.stringify((await site.eventPage(eventId)).data.tickets)).toContain('"availableTickets":98');
  });

  it('runs as two servers on one database: both answer, each job runs on one of them, and passes on when it stops', async () => {
    const second = await startOn(database.url);
    const one = storefront((pathname, init) => fetch(`${first.baseURL}${pathname}`, init), first.baseURL);
    const two = storefront((pathname, init) => fetch(`${second.baseURL}${pathname}`, init), second.baseURL);

    // What one server wrote, the other reads: a session made on the first signs in on the second.
    const buyer = await one.signUpAndSignIn('Meera Nair', 'meera@example.in');
    expect((await two.ok<{ email: string }>('query', 'auth.me', undefined, buyer.cookie)).data).toMatchObject(
      {
        email: 'meera@example.in',
      },
    );
    const home = await two.homeEventIds('Pune');
    expect(home).toHaveLength(1);
    expect((await two.eventPage(home[0]!)).data.name).toBe('Opening Night');
    expect(
      (await two.ok<{ id: string }[]>('query', 'events.search', { q: 'night' })).data.map((e) => e.id),
    ).toEqual(home);

    // A purchase on the second server; its booking read on the first.
    expect(await npmRun('scripts/user-verify.ts', ['meera@example.in'], database.url)).toContain(
      'is now verified',
    );
    const bought = await two.buy(buyer.cookie, onSale, 1);
    expect(bought.confirmed?.data.outcome, JSON.stringify(bought)).toBe('booked');
    const mine = await one.ok<{ id: string }[]>('query', 'bookings.mine', undefined, buyer.cookie);
    expect(mine.data.map((b) => b.id)).toEqual([bought.confirmed!.data.bookingId]);

    // Every job ticks every 200 ms on both: give each a few ticks, then every job has one leader.
    await waitUntil(
      () => jobsLedBy(first).size + jobsLedBy(second).size === JOBS.length,
      'every job led',
      () => first.output() + second.output(),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const led = [jobsLedBy(first), jobsLedBy(second)];
    for (const job of JOBS) {
      expect(
        led.filter((jobs) => jobs.has(job)),
        job,
      ).toHaveLength(1);
    }
    // The first server started alone, so it took them all; the second waits.
    expect([...led[0]!].sort()).toEqual([...JOBS].sort());
    expect(led[1]!.size).toBe(0);
    // And every job ran there without failing (each reads and writes the shared database).
    expect(jobFailures(first)).toEqual([]);

    // The first stops (a deploy): its leads are given up, and the second takes every job over.
    await first.stop();
    await waitUntil(
      () => jobsLedBy(second).size === JOBS.length,
      'the second server leading every job',
      () => second.output(),
    );
    expect((await fetch(`${second.baseURL}/healthz`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(jobFailures(second)).toEqual([]);
  });
});
