import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src-server/app-secret.ts';
import { PG_DUMP_FILE } from '../../src-server/db/backup-postgres.ts';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { contactMessages } from '../../src-server/db/schema-pg/contact.ts';
import { installation } from '../../src-server/db/schema-pg/installation.ts';
import { freshPostgresDatabase, scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';

// `npm run db:backup` on PostgreSQL (issue 38, ADR 0035): a pg_dump beside the app secret, named and
// pruned as SQLite's backups are, that pg_restore turns back into the same rows.

const ROOT = path.resolve(import.meta.dirname, '../..');
const serverUrl = testPostgresUrl('pg-backup.test.ts');
const SECRET = 'a-secret-of-at-least-32-characters-for-the-backup';

/** `npm run db:backup -- <args>` with `env` over a clean test environment. */
function runBackup(env: Record<string, string>, args: string[] = []) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-backup.ts', ...args], {
    env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: '', APP_SECRET: '', ...env },
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const folder = / to (\S+) \(keeping/.exec(result.stdout)?.[1];
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, folder };
}

async function rowCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from "${name}"`);
      counts[name] = Number(rows[0]!.n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

describe.skipIf(serverUrl === undefined)('npm run db:backup on PostgreSQL', () => {
  let source: { db: PgDb; url: string; drop: () => Promise<void> };
  let dataDir: string;
  beforeAll(async () => {
    source = await freshPostgresDatabase(serverUrl!);
    await source.db
      .insert(installation)
      .values({ id: 1, appSecretFingerprint: fingerprintOf(SECRET), createdAt: '2026-11-29T00:00:00Z' });
    await source.db.insert(contactMessages).values(
      Array.from({ length: 37 }, (_, i) => ({
        firstName: `F${i}`,
        lastName: 'L',
        email: 'a@b.in',
        mobile: '9876543210',
        message: 'hi',
        createdAt: '2026-11-29T00:00:00Z',
      })),
    );
    dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-pg-backup-'));
    mkdirSync(path.join(dataDir, 'uploads'));
    writeFileSync(path.join(dataDir, 'uploads', `${'cd'.repeat(16)}.600x800.webp`), 'picture bytes');
  });
  afterAll(async () => {
    await source?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('dumps the database (custom format) with its app secret and uploads; pg_restore gives back every row', async () => {
    const run = runBackup({ DATA_DIR: dataDir, DATABASE_URL: source.url, APP_SECRET: SECRET });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const folder = run.folder!;
    expect(path.dirname(folder)).toBe(path.join(dataDir, 'backups'));
    expect(path.basename(folder)).toMatch(/^jalsa-\d{4}-\d\d-\d\dT/);
    expect(readdirSync(folder).sort()).toEqual(['app-secret', PG_DUMP_FILE, 'uploads']);
    expect(readFileSync(path.join(folder, 'app-secret'), 'utf8')).toBe(SECRET);
    expect(statSync(path.join(folder, 'app-secret')).mode & 0o777).toBe(0o600);
    // Custom format: pg_restore's own archive, starting with its magic bytes.
    expect(readFileSync(path.join(folder, PG_DUMP_FILE)).subarray(0, 5).toString()).toBe('PGDMP');

    const restored = await scratchPostgres(serverUrl!, 'jalsa_restore');
    try {
      execFileSync('pg_restore', ['--no-owner', `--dbname=${restored.url}`, path.join(folder, PG_DUMP_FILE)]);
      const before = await rowCounts(source.url);
      expect(before.contact_messages).toBe(37);
      expect(before.installation).toBe(1);
      expect(await rowCounts(restored.url)).toEqual(before);
    } finally {
      await restored.drop();
    }
  }, 60_000);

  it('takes the URL as an argument too, and keeps only the newest N, as on SQLite', () => {
    const target = path.join(dataDir, 'elsewhere');
    const folders = [1, 2, 3].map(
      () => runBackup({ DATA_DIR: dataDir, APP_SECRET: SECRET }, [target, source.url, '--keep', '2']).folder,
    );
    expect(readdirSync(target).sort()).toEqual(folders.slice(1).map((f) => path.basename(f!)));
  }, 60_000);

  it('keeps the dump but not a secret that did not sign this database, and says so with a non-zero exit', () => {
    const run = runBackup({
      DATA_DIR: dataDir,
      DATABASE_URL: source.url,
      APP_SECRET: 'another-secret-of-at-least-32-characters!!',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('is not the secret this database');
    expect(readdirSync(run.folder!)).not.toContain('app-secret');
    expect(readdirSync(run.folder!)).toContain(PG_DUMP_FILE);
  }, 30_000);

  it('says plainly when pg_dump is missing or older than the server, leaving no folder behind', () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'jalsa-fake-pg-'));
    const target = path.join(bin, 'backups');
    try {
      const missing = runBackup({ DATA_DIR: dataDir, DATABASE_URL: source.url, PATH: bin }, [target]);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/pg_dump is not installed .*apt-get install postgresql-client-\d+/);

      writeFileSync(path.join(bin, 'pg_dump'), '#!/bin/sh\necho "pg_dump (PostgreSQL) 11.22"\n');
      chmodSync(path.join(bin, 'pg_dump'), 0o755);
      const old = runBackup({ DATA_DIR: dataDir, DATABASE_URL: source.url, PATH: bin }, [target]);
      expect(old.status).toBe(1);
      expect(old.stderr).toMatch(/pg_dump 11 is older than the server \(PostgreSQL \d+/);
      expect(readdirSync(bin)).toEqual(['pg_dump']);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 30_000);
});
