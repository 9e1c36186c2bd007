import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src-server/db/client.ts';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { type RateLimit, takeRateLimited } from '../../src-server/services/rate-limits/rate-limits.ts';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/test-postgres.ts';

// ADR 0045: a transition written once (the rate limit's count-then-record, as generator steps) runs on
// SQLite inside better-sqlite3's synchronous transaction and on PostgreSQL awaited on a pooled
// connection, and the same cases prove both, including the race two engines guard differently (the
// write lock on SQLite, an advisory lock per limit and key on PostgreSQL).

type Counted = { limit: RateLimit; key: string }[];
interface Engine {
  take: (counted: Counted, now: Date) => Promise<boolean>;
  hits: () => Promise<number>;
}

const serverUrl = testPostgresUrl('engine-rate-limit.test.ts');
const engines: [string, () => Promise<Engine & { close: () => Promise<void> }>][] = [
  [
    'SQLite',
    async () => {
      const handle = openDatabase(':memory:');
      return {
        take: (counted, now) => takeRateLimited(handle.db, counted, now),
        hits: async () => handle.db.select({ n: count() }).from(tablesOf(handle.db).rateLimitHits).get()!.n,
        close: async () => handle.close(),
      };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const fresh = await freshPostgresDatabase(serverUrl, { poolSize: 10 });
      const db: PgDb = fresh.db;
      return {
        // The app's own entry point (an upload, a contact message), as the composition root hands it PostgreSQL.
        take: (counted, now) => takeRateLimited(db as unknown as Db, counted, now),
        hits: async () =>
          (await db.$client.query<{ n: number }>('select count(*)::int as n from rate_limit_hits')).rows[0]!
            .n,
        close: fresh.drop,
      };
    },
  ]);
}

const SIGN_INS: RateLimit = { name: 'sign-in/client', max: 3, windowMs: 60_000 };
const SIGN_UPS: RateLimit = { name: 'sign-up/client', max: 5, windowMs: 60_000 };
const T0 = new Date('2026-11-29T10:00:00.000Z');

describe.each(engines)('the rate limit, written once, on %s', (_name, open) => {
  let engine: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it('lets `max` requests through in a window, refuses the next without counting it, and lets one through once the window has passed', async () => {
    const key = 'client-a';
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await engine.take([{ limit: SIGN_INS, key }], T0));
    expect(answers).toEqual([true, true, true, false]);
    expect(await engine.hits()).toBe(3);
    expect(await engine.take([{ limit: SIGN_INS, key }], new Date(T0.getTime() + 60_000))).toBe(true);
  });

  it('a request counted against two limits passes only under both, and a refusal counts against neither', async () => {
    const before = await engine.hits();
    const both = (key: string) => [
      { limit: SIGN_INS, key },
      { limit: SIGN_UPS, key: 'shared-address' },
    ];
    // SIGN_INS allows 3 per key; SIGN_UPS 5 per address: keys b, c pass 3 + 2 times, the sixth is refused.
    const answers = [];
    for (const key of ['b', 'b', 'b', 'c', 'c', 'c']) answers.push(await engine.take(both(key), T0));
    expect(answers).toEqual([true, true, true, true, true, false]);
    expect((await engine.hits()) - before).toBe(10);
  });

  it('50 requests at once for a limit of 5: exactly 5 pass (two transactions never pass on the same count)', async () => {
    const limit: RateLimit = { name: 'reset/email', max: 5, windowMs: 60_000 };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => engine.take([{ limit, key: 'asha@example.com' }], T0)),
    );
    expect(answers.filter(Boolean)).toHaveLength(5);
  });
});
