import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, PG_MIGRATIONS_FOLDER, type PgDb } from '../../src-server/db/engine/postgres.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The PostgreSQL server a test file runs against (ADR 0035): TEST_DATABASE_URL, which CI sets
 * (.ci/run). In CI a missing URL fails the file rather than skipping it. Elsewhere, one started by
 * scripts/start-test-postgres.sh, else undefined (the file skips, saying why, where PostgreSQL is not
 * installed).
 */
export function testPostgresUrl(testFile: string): string | undefined {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  if (process.env.CI === 'true' || process.env.CI === '1') {
    throw new Error(
      `${testFile}: TEST_DATABASE_URL is not set in CI; .ci/run starts a PostgreSQL (scripts/start-test-postgres.sh) and exports it.`,
    );
  }
  try {
    return execFileSync('bash', [path.join(root, 'scripts/start-test-postgres.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const reason = String((error as { stderr?: string }).stderr ?? error).trim();
    console.warn(
      `${testFile} skipped: TEST_DATABASE_URL is not set and scripts/start-test-postgres.sh could not start PostgreSQL (${reason}). Install it with apt-get install -y postgresql, or set TEST_DATABASE_URL.`,
    );
    return undefined;
  }
}

export interface ScratchPostgres {
  url: string;
  /**
   * `waitForClosing`: the caller has closed its connections, but a pool's `end()` resolves before its
   * sockets have; a forced drop would end those backends under clients that then report an unhandled
   * error, so wait (briefly) for them to go instead.
   */
  drop: (options?: { waitForClosing?: boolean }) => Promise<void>;
}

/**
 * A new database on the server, dropped (with any connection left to it) by `drop`: empty, or a copy of
 * `template` (CREATE DATABASE … TEMPLATE, a file copy rather than a migration run).
 */
export async function scratchPostgres(
  serverUrl: string,
  prefix = 'jalsa_test',
  template?: string,
): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async ({ waitForClosing = false } = {}) => {
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      try {
        for (let attempt = 0; waitForClosing && attempt < 100; attempt++) {
          try {
            await again.query(`DROP DATABASE IF EXISTS "${name}"`);
            return;
          } catch (error) {
            // 55006: still in use by another session.
            if ((error as { code?: string }).code !== '55006') throw error;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        await again.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await again.end();
      }
    },
  };
}

/**
 * A scratch database opened as the server opens PostgreSQL (`openPostgres`: a pool, the migrations
 * applied); `drop` closes the pool and removes the database. It is a copy of a migrated template (one per
 * set of migrations on the server), so its own migration run finds nothing to do: a test that makes a
 * database per case (the access matrices on PostgreSQL) pays a copy, not 60 migrations.
 */
export async function freshPostgresDatabase(
  serverUrl: string,
  options: { poolSize?: number } = {},
): Promise<{ db: PgDb; url: string; drop: () => Promise<void> }> {
  const scratch = await scratchPostgres(serverUrl, 'jalsa_test', await migratedTemplate(serverUrl));
  const db = await openPostgres(scratch.url, options);
  return {
    db,
    url: scratch.url,
    drop: async () => {
      await db.$client.end();
      await scratch.drop({ waitForClosing: true });
    },
  };
}

const templates = new Map<string, Promise<string>>();

/**
 * The name of a database holding every migration of migrations-pg/ and nothing else, made once per server
 * and set of migrations (its name carries their hash), under an advisory lock so parallel workers make it
 * once. It is built under a temporary name and renamed when complete, and nobody stays connected to it
 * (CREATE DATABASE … TEMPLATE needs that).
 */
export function migratedTemplate(serverUrl: string): Promise<string> {
  let made = templates.get(serverUrl);
  if (!made) {
    made = makeTemplate(serverUrl);
    templates.set(serverUrl, made);
  }
  return made;
}

async function makeTemplate(serverUrl: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of readdirSync(PG_MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) {
      hash.update(file).update(readFileSync(path.join(PG_MIGRATIONS_FOLDER, file)));
    }
  }
  const name = `jalsa_template_${hash.digest('hex').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', ['jalsa test template']);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = await scratchPostgres(serverUrl, 'jalsa_template_building');
      const db = await openPostgres(building.url, { poolSize: 1 });
      await db.$client.end();
      const buildingName = new URL(building.url).pathname.slice(1);
      await admin.query(`ALTER DATABASE "${buildingName}" RENAME TO "${name}"`);
    }
  } finally {
    await admin.query('select pg_advisory_unlock(hashtext($1))', ['jalsa test template']).catch(() => {});
    await admin.end();
  }
  return name;
}
