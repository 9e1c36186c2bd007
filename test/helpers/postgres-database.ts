import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The test PostgreSQL server's URL: TEST_DATABASE_URL (.ci/run starts one), else one started with
 * scripts/start-test-postgres.sh. Undefined (the caller skips, saying why) only outside CI where
 * PostgreSQL is not installed; in CI a missing server fails the run.
 */
export function testPostgresUrl(testFile: string): string | undefined {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  try {
    return execFileSync('bash', [path.join(root, 'scripts/start-test-postgres.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const reason = String((error as { stderr?: string }).stderr ?? error).trim();
    if (process.env.CI) {
      throw new Error(`TEST_DATABASE_URL is not set and no PostgreSQL could be started in CI: ${reason}`);
    }
    console.warn(
      `${testFile} skipped on PostgreSQL: TEST_DATABASE_URL is not set and scripts/start-test-postgres.sh could not start it (${reason}). Install it with apt-get install -y postgresql, or set TEST_DATABASE_URL.`,
    );
    return undefined;
  }
}

/** A fresh database of its own on the test server, migrated; `drop` removes it. */
export async function freshPostgresDatabase(
  serverUrl: string,
  options: { poolSize?: number } = {},
): Promise<{ db: PgDb; url: string; drop: () => Promise<void> }> {
  const name = `jalsa_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), options);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.$client.end();
      // The pool's promise resolves before its sockets have closed; a forced drop would terminate those
      // backends and their clients would report it as an unhandled error. Wait for them instead.
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      for (let attempt = 0; ; attempt++) {
        try {
          await again.query(`DROP DATABASE IF EXISTS "${name}"`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      await again.end();
    },
  };
}
