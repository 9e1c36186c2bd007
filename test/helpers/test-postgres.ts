import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';

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

/** A new, empty database on the server, dropped (with any connection left to it) by `drop`. */
export async function scratchPostgres(serverUrl: string, prefix = 'jalsa_test'): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
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
 * applied); `drop` closes the pool and removes the database.
 */
export async function freshPostgresDatabase(
  serverUrl: string,
  options: { poolSize?: number } = {},
): Promise<{ db: PgDb; url: string; drop: () => Promise<void> }> {
  const scratch = await scratchPostgres(serverUrl);
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
