import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, PG_MIGRATIONS_FOLDER, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { type ScratchPostgres, scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// Issue 38: the servers of one installation started at once (a deploy, a fleet's first start) each
// apply pending migrations as they open PostgreSQL. drizzle's migrator takes no lock of its own: two
// openings on an empty database both ran the first migration, and the second died on "duplicate key
// value violates unique constraint pg_type_typname_nsp_index" (a server exiting at start).

const serverUrl = testPostgresUrl('engine-migrate-at-once.test.ts');

describe.skipIf(serverUrl === undefined)('servers opening one empty PostgreSQL at once', () => {
  let database: ScratchPostgres;
  const opened: PgDb[] = [];
  beforeAll(async () => {
    database = await scratchPostgres(serverUrl!, 'jalsa_migrate_at_once');
  });
  afterAll(async () => {
    for (const db of opened) await db.$client.end();
    await database?.drop({ waitForClosing: true });
  });

  it('every opening succeeds and each migration is applied once', async () => {
    const openings = await Promise.allSettled(
      Array.from({ length: 4 }, () => openPostgres(database.url, { poolSize: 1 })),
    );
    for (const o of openings) if (o.status === 'fulfilled') opened.push(o.value);
    expect(openings.map((o) => (o.status === 'rejected' ? String(o.reason) : 'opened'))).toEqual(
      Array(4).fill('opened'),
    );
    const journal = JSON.parse(
      readFileSync(path.join(PG_MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
    ) as {
      entries: unknown[];
    };
    const applied = await opened[0]!.$client.query<{ n: string }>(
      'select count(*) as n from drizzle.__drizzle_migrations',
    );
    expect(Number(applied.rows[0]!.n)).toBe(journal.entries.length);
  });
});
