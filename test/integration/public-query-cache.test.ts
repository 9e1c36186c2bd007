import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { type Context, Hono } from 'hono';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../src-server/app-env.ts';
import { publicQueryCache } from '../../src-server/http/public-query-cache.ts';
import { requestContext } from '../../src-server/http/request-context.ts';
import { createLogger } from '../../src-server/logger.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { eventReadsDuring } from '../helpers/event-reads.ts';
import { createTicketedEventOn, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testClock, testEngine } from '../helpers/test-app.ts';

/**
 * A write by another process: a connection of its own to the app's database (SQLite's file, or the
 * PostgreSQL database), outside the app's pool.
 */
async function writeFromAnotherProcess(t: TestApp, statement: string, id: string) {
  if (t.engine === 'postgres') {
    const other = new pg.Client({ connectionString: t.deps.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query(statement.replace('?', '$1'), [id]);
    } finally {
      await other.end();
    }
    return;
  }
  const other = new Database(`${t.dataDir}/jalsa.db`);
  try {
    other.prepare(statement).run(id);
  } finally {
    other.close();
  }
}

// The catalogue micro-cache (src-server/http/public-query-cache.ts) must never show availability older
// than the last write, and never keep a list past its maximum age.
describe('cached public catalogue reads', () => {
  let t: TestApp;
  let ev: TicketedEvent;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    ev = await createTicketedEventOn(t.deps.db);
  });
  afterEach(async () => {
    await t.close();
  });

  async function get(path: string, acceptEncoding = 'gzip, deflate, br, zstd') {
    const res = await t.request(path, { headers: { 'accept-encoding': acceptEncoding } });
    const raw = Buffer.from(await res.arrayBuffer());
    const text = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
    return { res, json: JSON.parse(text) as { result: { data: unknown } } };
  }
  const detailPath = () =>
    `/trpc/events.byId?input=${encodeURIComponent(JSON.stringify({ id: ev.eventId }))}`;
  const available = async () =>
    (
      (await get(detailPath())).json.result.data as {
        tickets: { slots: { tickets: { availableTickets: number }[] }[] }[];
      }
    ).tickets[0]!.slots[0]!.tickets[0]!.availableTickets;

  it('answers a repeat from the cache, without reading the events again', async () => {
    const first = await get('/trpc/events.list');
    let second: Awaited<ReturnType<typeof get>> | undefined;
    expect(await eventReadsDuring(t, async () => (second = await get('/trpc/events.list')))).toBe(0);
    expect(second?.json).toEqual(first.json);
    // The same read after a write reads the events again: the count above could have been more than 0.
    await createTicketedEventOn(t.deps.db);
    expect(await eventReadsDuring(t, () => get('/trpc/events.list'))).toBeGreaterThan(0);
  });

  it('answers a repeat with the same body and headers, compressed for a browser', async () => {
    for (let i = 0; i < 10; i += 1) await createTicketedEventOn(t.deps.db);
    const first = await get('/trpc/events.list');
    const second = await get('/trpc/events.list');
    expect(second.json).toEqual(first.json);
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get('content-encoding')).toBe('gzip');
    // A hit sends every header the miss sent (security headers included), with its own request id.
    const withoutId = (res: Response) =>
      Object.fromEntries([...res.headers].filter(([name]) => name !== 'x-request-id'));
    expect(withoutId(second.res)).toEqual(withoutId(first.res));
    expect(second.res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(second.res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(second.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.res.headers.get('x-request-id')).not.toBe(first.res.headers.get('x-request-id'));
    // A client that accepts no compression gets plain JSON.
    const plain = await get('/trpc/events.list', '');
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.json).toEqual(first.json);
  });

  it('sends answers under 1 KB uncompressed, with their length', async () => {
    const res = await t.request('/trpc/payments.config', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe((await res.arrayBuffer()).byteLength);
  });

  it('shows the seats a reservation took on the very next read', async () => {
    expect(await available()).toBe(50);
    const buyer = await signedInUser(t);
    await proceed(t, buyer.cookie, ev, 3);
    expect(await available()).toBe(47);
    await proceed(t, (await signedInUser(t)).cookie, ev, 2);
    expect(await available()).toBe(45);
  });

  it('sees a write made by another process (another connection to the same file)', async () => {
    expect(await available()).toBe(50);
    await writeFromAnotherProcess(
      t,
      'update ticket_types set available_tickets = 7 where id = ?',
      ev.ticketTypeIds[0]!,
    );
    expect(await available()).toBe(7);
  });

  const listed = async () =>
    ((await get('/trpc/events.list')).json.result.data as { id: string }[]).map((e) => e.id);

  // SQLite only: its cache knows from SQLite's write marks that nothing was written, so it need not read
  // catalog_version; PostgreSQL has no such mark, and reads the version on every request by design
  // (postgresMarks in public-query-cache.ts).
  it.runIf(testEngine() === 'sqlite')('reads the catalogue version again only after a write', async () => {
    expect(await listed()).toContain(ev.eventId);
    const versionReads = () => {
      const statement = Object.getPrototypeOf(t.deps.sqlite.prepare('select 1')) as { get: () => unknown };
      return vi.spyOn(statement, 'get');
    };
    const spy = versionReads();
    try {
      await listed();
      const reads = spy.mock.contexts.filter((s) => /catalog_version/.test((s as Database.Statement).source));
      expect(reads).toHaveLength(0);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('sees another process unpublish an event', async () => {
    expect(await listed()).toContain(ev.eventId);
    expect(await listed()).toContain(ev.eventId);
    // The status trigger moves catalog_version in that process's own transaction.
    await writeFromAnotherProcess(t, "update events set status = 'draft' where id = ?", ev.eventId);
    expect(await listed()).not.toContain(ev.eventId);
  });

  it('drops an event from the list once it is over, with no write in between', async () => {
    const ids = async () =>
      ((await get('/trpc/events.list')).json.result.data as { id: string }[]).map((e) => e.id);
    expect(await ids()).toContain(ev.eventId);
    t.clock.set(new Date('2026-12-06T00:00:00.000Z'));
    expect(await ids()).not.toContain(ev.eventId);
  });
});

describe('a burst of misses for one URL', () => {
  /** The cache in front of a handler that counts its calls and answers only when released. */
  // On the engine's own database: PostgreSQL's catalogue mark is a read on the pool (a promise), so the
  // requests of a burst meet while each awaits it.
  async function countingApp(answer: (c: Context) => Response) {
    const database = await createTestAppOn(testEngine());
    const app = new Hono<AppEnv>();
    app.use(requestContext(createLogger('silent')));
    app.use(
      '/trpc/*',
      publicQueryCache({ sqlite: database.deps.sqlite, db: database.deps.db, clock: testClock() }),
    );
    let calls = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    app.get('/trpc/events.list', async (c) => {
      calls += 1;
      await released;
      return answer(c);
    });
    return { app, calls: () => calls, release, close: database.close };
  }

  it('computes the answer once and gives it to every request that was waiting', async () => {
    const t = await countingApp((c) => c.json({ result: { data: ['one answer'] } }));
    try {
      const responses = Array.from({ length: 20 }, () => t.app.request('/trpc/events.list'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      t.release();
      const answers = await Promise.all(responses);
      expect(t.calls()).toBe(1);
      for (const res of answers) expect(await res.json()).toEqual({ result: { data: ['one answer'] } });
      const ids = new Set(answers.map((res) => res.headers.get('x-request-id')));
      expect(ids.size).toBe(20);
    } finally {
      await t.close();
    }
  });

  it('lets each waiting request answer for itself when the first answer cannot be shared', async () => {
    const t = await countingApp((c) => {
      c.header('set-cookie', 'session=renewed');
      return c.json({ result: { data: [] } });
    });
    try {
      const responses = Array.from({ length: 5 }, () => t.app.request('/trpc/events.list'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      t.release();
      const answers = await Promise.all(responses);
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
      expect(t.calls()).toBe(5);
    } finally {
      await t.close();
    }
  });
});
