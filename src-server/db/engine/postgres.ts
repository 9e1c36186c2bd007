import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from '../schema-pg/index.ts';
import type { WriteTx } from '../write-transaction.ts';
import { DEFAULT_POOL_SIZE } from './pool-size.ts';
import { runAsync, type Steps } from './steps.ts';

export type PgDb = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export const PG_MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../../migrations-pg');

/**
 * A PostgreSQL database for `DATABASE_URL` (ADR 0035): a pool of `poolSize` connections, its migrations
 * (migrations-pg/) applied. Every read that decides a sale goes to this primary, never a replica.
 *
 * A pooled connection the server ends while it is idle (a restart, a failover, an administrator's
 * pg_terminate_backend) is an 'error' event of the pool, which without a listener ended the whole process
 * as an uncaught exception. pg has already dropped that connection, and the next query opens a new one
 * (or fails as a query, answered like any other failure): `onIdleError` only reports it.
 */
export async function openPostgres(
  url: string,
  {
    poolSize = DEFAULT_POOL_SIZE,
    onIdleError = () => {},
  }: { poolSize?: number; onIdleError?: (error: Error) => void } = {},
): Promise<PgDb> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', onIdleError);
  const db = drizzle(pool, { schema }) as PgDb;
  try {
    await migrateOneAtATime(url, db);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return db;
}

/**
 * Applies pending migrations while holding a session advisory lock, so servers opening one database at
 * once (a deploy, a fleet's first start) apply each migration once: drizzle's migrator takes no lock of
 * its own, and two of them on an empty database both ran the first migration, the second failing on a
 * duplicate table (its server exiting at start). The lock is taken on a connection outside the pool, so
 * a pool of one connection still has it for the migrator; it ends with that connection whatever happens.
 */
async function migrateOneAtATime(url: string, db: PgDb): Promise<void> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtextextended($1, 0))', ['jalsa:migrations']);
    await migrate(db, { migrationsFolder: PG_MIGRATIONS_FOLDER });
  } finally {
    await lock.end();
  }
}

/**
 * PostgreSQL's `writeTransaction` (ADR 0045): the transition written once for both engines, its
 * statements awaited in order on one pooled connection between BEGIN and COMMIT (ROLLBACK when it
 * throws). Services type their transaction as SQLite's; the same query builders build PostgreSQL's SQL
 * because the transition takes its tables from `tablesOf(tx)`.
 */
export function pgWriteTransaction<T>(db: PgDb, transition: (tx: WriteTx) => Steps<T>): Promise<T> {
  return db.transaction((tx) => runAsync(transition(tx as unknown as WriteTx), tx));
}

type PgTx = Parameters<Parameters<PgDb['transaction']>[0]>[0];

/**
 * A write transaction for code that exists only on PostgreSQL (its search index, ADR 0035), in raw SQL
 * or Drizzle: the one place such transactions are opened, beside `pgWriteTransaction` for transitions
 * written once. No network call inside, as everywhere.
 */
export function pgEngineTransaction<T>(db: PgDb, work: (tx: PgTx) => Promise<T>): Promise<T> {
  return db.transaction(work);
}

/** Several reads that must agree (a search page and its count): one read-only snapshot. */
export function pgReadSnapshot<T>(db: PgDb, work: (tx: PgTx) => Promise<T>): Promise<T> {
  return db.transaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}
