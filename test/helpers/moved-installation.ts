import { databaseFile } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { moveToPostgres } from '../../src-server/db/move-to-postgres.ts';
import type { TestApp } from './test-app.ts';
import { type ScratchPostgres, scratchPostgres } from './test-postgres.ts';

/**
 * The two-engine tests' PostgreSQL (ADR 0045): the installation the app made on SQLite, copied into a
 * scratch database as `npm run db:move-to-postgres` copies a live one, so both engines answer over the
 * same rows.
 */
export async function moveToScratchPostgres(
  t: TestApp,
  serverUrl: string,
  prefix: string,
): Promise<ScratchPostgres> {
  // The move reads the file: what the app wrote must be in it, not only in the WAL.
  t.deps.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const target = await scratchPostgres(serverUrl, prefix);
  await moveToPostgres({
    sqliteFile: databaseFile(t.dataDir),
    databaseUrl: target.url,
    appSecret: t.deps.appSecret,
  });
  return target;
}

/** Two pools on one PostgreSQL, as two app servers: `on(i)` is the i-th, round about. */
export async function twoServers(
  url: string,
  poolSize: number,
): Promise<{ on: (pool?: number) => PgDb; close: () => Promise<void> }> {
  const pools = [await openPostgres(url, { poolSize }), await openPostgres(url, { poolSize })];
  return {
    on: (pool = 0) => pools[pool % pools.length]!,
    close: async () => {
      for (const pool of pools) await pool.$client.end();
    },
  };
}
