import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../src-server/app-secret.ts';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { installation } from '../../src-server/db/schema-pg/installation.ts';
import { doctorReport, runDoctor } from '../../src-server/doctor.ts';
import { loadEnv } from '../../src-server/env.ts';
import type { Mailer } from '../../src-server/services/mail/mailer.ts';
import {
  freshPostgresDatabase,
  type ScratchPostgres,
  scratchPostgres,
  testPostgresUrl,
} from '../helpers/test-postgres.ts';

// `npm run doctor` with DATABASE_URL (issue 38, ADR 0035): the shared PostgreSQL is checked instead of
// DATA_DIR's SQLite file: server, migrations, pool, pg_trgm, and the app secret's recorded fingerprint.

const serverUrl = testPostgresUrl('doctor-postgres.test.ts');
const SECRET = 'the-installations-secret-of-32-characters-or-more';
const DB_CHECKS = ['postgresql', 'migrations', 'connection pool', 'search (pg_trgm)', 'app secret'];
const mailer: Mailer = { name: 'resend', send: async () => ({ messageId: 'email_1' }) };

describe.skipIf(serverUrl === undefined)('npm run doctor on PostgreSQL', () => {
  let migrated: { db: PgDb; url: string; drop: () => Promise<void> };
  let empty: ScratchPostgres;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-doctor-pg-'));
    migrated = await freshPostgresDatabase(serverUrl!);
    await migrated.db
      .insert(installation)
      .values({ id: 1, appSecretFingerprint: fingerprintOf(SECRET), createdAt: '2026-11-29T00:00:00Z' });
    empty = await scratchPostgres(serverUrl!, 'jalsa_unmigrated');
  });
  afterAll(async () => {
    await migrated?.drop();
    await empty?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function doctor(overrides: Record<string, string>) {
    const source = { NODE_ENV: 'development', DATA_DIR: dataDir, APP_SECRET: SECRET, ...overrides };
    const checks = await runDoctor(source, loadEnv(source), { mailer, mailTo: 'ops@example.in' });
    const database = checks.filter((c) => DB_CHECKS.includes(c.name));
    return { checks, database, report: doctorReport(checks) };
  }

  it('passes a migrated database whose fingerprint is the app secret, naming version, latest migration and pool', async () => {
    const { checks, database, report } = await doctor({ DATABASE_URL: migrated.url });
    // The SQLite check gives way: DATA_DIR holds no database on PostgreSQL.
    expect(checks.map((c) => c.name)).not.toContain('database');
    expect(database.map((c) => c.name)).toEqual(DB_CHECKS);
    expect(database.filter((c) => !c.ok)).toEqual([]);
    const text = report.lines.join('\n');
    expect(text).toMatch(/✓ postgresql: PostgreSQL \d+\.\d+ at /);
    expect(text).toMatch(/✓ migrations: applied up to the latest, \d{4}_\w+/);
    expect(text).toMatch(
      /✓ connection pool: 10 connections per server \(the default\); .* room for \d+ server/,
    );
    expect(text).toContain('✓ search (pg_trgm): pg_trgm');
    expect(text).toContain('✓ app secret: APP_SECRET matches the fingerprint the database records');
    expect(report.exitCode).toBe(0);
  });

  it('fails an unmigrated database, a line per missing thing, with a non-zero exit', async () => {
    const { database, report } = await doctor({ DATABASE_URL: empty.url });
    expect(Object.fromEntries(database.map((c) => [c.name, c.ok]))).toEqual({
      postgresql: true,
      migrations: false,
      'connection pool': true,
      'search (pg_trgm)': false,
      'app secret': false,
    });
    const text = report.lines.join('\n');
    expect(text).toContain('✗ migrations: no migrations applied');
    expect(text).toContain(
      '✗ search (pg_trgm): pg_trgm is not installed in this database, and search needs it',
    );
    expect(text).toContain('✗ app secret: cannot be checked');
    expect(report.exitCode).toBe(1);
  });

  it('fails an app secret that is not the recorded one, or none at hand, and a pool larger than the server takes', async () => {
    const wrong = await doctor({
      DATABASE_URL: migrated.url,
      APP_SECRET: 'some-other-secret-of-32-characters-or-more',
      // The largest pool a server accepts (env.ts), more than the test server's default 100 connections.
      DATABASE_POOL_SIZE: '200',
    });
    const failed = Object.fromEntries(wrong.database.filter((c) => !c.ok).map((c) => [c.name, c.detail]));
    expect(Object.keys(failed)).toEqual(['connection pool', 'app secret']);
    expect(failed['app secret']).toContain('APP_SECRET is not the secret this database');
    expect(failed['connection pool']).toContain('lower DATABASE_POOL_SIZE or raise max_connections');
    expect(wrong.report.exitCode).toBe(1);

    const none = await doctor({ DATABASE_URL: migrated.url, APP_SECRET: '' });
    expect(none.database.find((c) => c.name === 'app secret')).toMatchObject({ ok: false });
    // DATA_DIR/app-secret stands in for APP_SECRET, as when a server starts.
    writeFileSync(path.join(dataDir, 'app-secret'), SECRET);
    try {
      const file = await doctor({ DATABASE_URL: migrated.url, APP_SECRET: '' });
      expect(file.database.find((c) => c.name === 'app secret')).toMatchObject({ ok: true });
    } finally {
      rmSync(path.join(dataDir, 'app-secret'));
    }
  });

  it('says it cannot connect, without the password, and skips the checks that need a connection', async () => {
    const { database, report } = await doctor({
      DATABASE_URL: 'postgres://jalsa:hunter2-password@127.0.0.1:1/jalsa',
    });
    expect(database).toHaveLength(1);
    expect(report.lines[1]).toMatch(
      /^✗ postgresql: cannot connect to postgres:\/\/jalsa:\*\*\*@127\.0\.0\.1:1\/jalsa/,
    );
    expect(report.lines.join('\n')).not.toContain('hunter2');
    expect(report.exitCode).toBe(1);
  });
});
