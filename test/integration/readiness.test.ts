import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { createLogger } from '../../src-server/logger.ts';
import { enqueueMailSteps } from '../../src-server/services/mail/outbox.ts';
import { watchDisk } from '../../src-server/services/operations/disk-watch.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { loseDatabase } from '../helpers/lose-database.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

const TOKEN = 'metrics-token-0123456789';
/** More than any disk here has free: the same path a nearly full disk takes. */
const MORE_THAN_FREE = { DISK_FREE_MIN_MB: String(1024 ** 3) };

/** Issue 37: /healthz said 200 on a full disk while every write failed, and nothing showed the backlog. */
describe('readiness and metrics for the operator', () => {
  const apps: TestApp[] = [];
  const app = async (
    ...args: Parameters<typeof createTestAppOn> extends [unknown, ...infer Rest] ? Rest : never
  ) => {
    const t = await createTestAppOn(testEngine(), ...args);
    apps.push(t);
    return t;
  };
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
  });

  const readiness = async (t: TestApp) => {
    const res = await t.request('/readyz');
    return {
      status: res.status,
      body: (await res.json()) as { status: string; unwell?: Record<string, string> },
    };
  };

  it('is ready on a sound site', async () => {
    expect(await readiness(await app())).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('names the database when it cannot be read (on PostgreSQL: when the server cannot be reached)', async () => {
    const t = await app();
    const giveBack = await loseDatabase(t);
    try {
      const { status, body } = await readiness(t);
      expect(status).toBe(503);
      expect(body.unwell).toEqual({ database: 'the database cannot be read' });
    } finally {
      await giveBack();
    }
  });

  it('names the disk before it fills, while /healthz stays the cheap liveness answer', async () => {
    const t = await app(MORE_THAN_FREE);
    const { status, body } = await readiness(t);
    expect(status).toBe(503);
    expect(Object.keys(body.unwell!)).toEqual(['disk']);
    expect(body.unwell!.disk).toMatch(/^\d+ MB free in DATA_DIR, below DISK_FREE_MIN_MB/);
    expect((await t.request('/healthz')).status).toBe(200);
  });

  it('names mail when a confirmation has waited over 15 minutes, not for a bulk backlog', async () => {
    const t = await app();
    const queue = (key: string, bulk: boolean) =>
      runnerFor(t.deps.db).write((tx) =>
        enqueueMailSteps(
          tx as WriteTx,
          { to: 'a@example.com', subject: 's', html: '<p>x</p>', text: 'x', idempotencyKey: key, bulk },
          t.clock.now(),
        ),
      );
    await queue('contact-message:1', true);
    t.clock.advance(20 * 60_000);
    expect((await readiness(t)).status).toBe(200);
    await queue('booking-confirmed:1', false);
    t.clock.advance(16 * 60_000);
    const { status, body } = await readiness(t);
    expect(status).toBe(503);
    expect(body.unwell!.mail).toMatch(
      /^1 confirmation\(s\) or other transactional mail due, the oldest for 16 min/,
    );
  });

  it('names the jobs when expired holds are not released', async () => {
    const t = await app();
    const event = await createTicketedEventOn(t.deps.db);
    await proceed(t, (await signedInUser(t)).cookie, event, 2);
    expect((await readiness(t)).status).toBe(200);
    // No job runs in these tests: after the hold's 7 minutes (session and grace) and 2 more, the sweeper
    // is overdue.
    t.clock.advance(10 * 60_000);
    expect((await readiness(t)).body.unwell).toEqual({
      jobs: '1 expired hold(s) not released: the background jobs have stalled',
    });
  });

  it('gives Prometheus text to the token only, or to this machine asking directly', async () => {
    const t = await app({ METRICS_TOKEN: TOKEN, ...MORE_THAN_FREE });
    expect((await t.request('/metrics')).status).toBe(403);
    expect(
      (await t.request('/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
    ).toBe(403);
    const res = await t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE jalsa_disk_free_bytes gauge\njalsa_disk_free_bytes ');
    expect(text).toContain('jalsa_ready 0\n');
    expect(text).toContain('jalsa_part_ready{part="disk"} 0\n');
    expect(text).toContain('jalsa_mail_pending{kind="transactional"} 0\n');
    expect(text).toMatch(/^jalsa_disk_free_bytes \d+$/m);

    const local = await app();
    const from = (peer: string, headers: Record<string, string> = {}) =>
      local.app.request('/metrics', { headers }, { incoming: { socket: { remoteAddress: peer } } });
    expect((await from('127.0.0.1')).status).toBe(200);
    expect((await from('203.0.113.9')).status).toBe(403);
    // Through a proxy on this machine every visitor would look local: refused.
    expect((await from('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).status).toBe(403);
  });

  it('warns in the log before the disk fills, once per 10 minutes while it lasts', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
    const t = await app(MORE_THAN_FREE, { logger });
    watchDisk(t.deps);
    watchDisk(t.deps);
    t.clock.advance(10 * 60_000);
    watchDisk(t.deps);
    const warnings = lines.filter((l) => l.msg.startsWith('disk almost full'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]!.level).toBe(50);
  });

  it('writes one failure with its stack once a minute, not once per request (a full disk filled the log)', async () => {
    const lines: { msg: string; err?: unknown; repeats?: number }[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
    const t = await app({}, { logger });
    const contact = () =>
      t.request('/trpc/contact.send', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'A', lastName: 'B', email: 'a@b.in', mobile: '', message: 'hi' }),
      });
    // Every write now fails alike, as on a full disk, with the engine's own message for it.
    const full = await fillTheDisk(t);
    try {
      for (let i = 0; i < 30; i++) expect((await contact()).status).toBe(500);
      const failures = () => lines.filter((l) => l.msg === 'procedure failed');
      expect(failures()).toHaveLength(1);
      expect((failures()[0]!.err as { message: string }).message).toContain(full.message);
      // Every request still has its access line with its 500.
      expect(lines.filter((l) => l.msg === 'request')).toHaveLength(30);
      t.clock.advance(60_000);
      await contact();
      expect(failures()).toHaveLength(2);
      expect(failures()[1]!.repeats).toBe(29);
    } finally {
      await full.mend();
    }
  });
});

/**
 * Makes every insert into rate_limit_hits fail as on a full disk, with the engine's message for it:
 * SQLite's SQLITE_FULL, or PostgreSQL's disk_full (53100) as its server reports a file it cannot extend.
 * `mend` removes the trigger again: a test's PostgreSQL database goes back to the pool after it, emptied of
 * rows but not of triggers.
 */
async function fillTheDisk(t: TestApp): Promise<{ message: string; mend: () => Promise<void> }> {
  if (t.engine === 'sqlite') {
    t.deps.sqlite.exec(
      "create trigger no_space before insert on rate_limit_hits begin select raise(abort, 'database or disk is full'); end",
    );
    return { message: 'database or disk is full', mend: async () => {} };
  }
  const db = t.deps.db as unknown as PgDb;
  const message = 'could not extend file "base/1/2": No space left on device';
  await db.execute(
    sql.raw(`
      create or replace function no_space() returns trigger language plpgsql as $$
      begin raise exception using errcode = '53100', message = '${message.replaceAll("'", "''")}'; end $$;
      create trigger no_space before insert on rate_limit_hits for each row execute function no_space();
    `),
  );
  return {
    message,
    mend: async () => {
      await db.execute(sql.raw('drop trigger no_space on rate_limit_hits; drop function no_space();'));
    },
  };
}
