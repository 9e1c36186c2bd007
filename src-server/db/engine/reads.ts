import { is, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db, DbOrTx } from '../client.ts';
import { inOneRead } from '../one-read.ts';
import { type PgDb, pgReadSnapshot } from './postgres.ts';
import { runAsync, runSync, type Steps } from './steps.ts';

/**
 * Reads written once for both engines (ADR 0045, "reads become awaited"): a read is steps, as a
 * transition is, so SQLite still runs it synchronously (its prepared statements, no await per
 * statement, and a synchronous wrapper for callers not yet converted) and PostgreSQL awaits each
 * statement on the pool. Callers await the answer on either engine.
 */

/** Whether `db` (or a transaction of it) is PostgreSQL's, as the composition root opened it. */
export function isPostgres(db: object): boolean {
  return is((db as { dialect?: unknown }).dialect, PgDialect);
}

/** Runs `steps` statement by statement, each on its own (outside any transaction). */
export function runStatements<T>(db: DbOrTx, steps: (db: DbOrTx) => Steps<T>): Promise<T> {
  if (isPostgres(db)) return runAsync(steps(db), db as unknown as PgDb);
  return settled(() => runSync(steps(db)));
}

/**
 * Several reads that must agree (a page and its count, the home page's rows) in one snapshot: one
 * SQLite read transaction (`inOneRead`), one read-only REPEATABLE READ transaction on PostgreSQL.
 */
export function readSnapshot<T>(db: DbOrTx, steps: (db: DbOrTx) => Steps<T>): Promise<T> {
  if (isPostgres(db)) {
    return pgReadSnapshot(db as unknown as PgDb, (tx) => runAsync(steps(tx as unknown as DbOrTx), tx));
  }
  return settled(() => inOneRead(db as Db, () => runSync(steps(db))));
}

/** SQLite's answer as a promise, a refusal (Event not found) rejecting it as on PostgreSQL. */
function settled<T>(read: () => T): Promise<T> {
  try {
    return Promise.resolve(read());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * A text column ordered and compared by its bytes on both engines: SQLite's default (BINARY), and
 * `collate "C"` on PostgreSQL, whose database collation may order by locale instead. A list's order
 * and its cursors then do not depend on the engine or the locale (as search-events-pg.ts does).
 */
export function bytewise(db: object, column: SQLiteColumn): SQLiteColumn | SQL {
  return isPostgres(db) ? sql`${column} collate "C"` : column;
}

/**
 * Every row of a hand-written select (an aggregate the query builder cannot say), as a read step on
 * either engine: SQLite's `all`, PostgreSQL's `execute`. PostgreSQL answers counts and sums of bigints
 * as text, so a caller turns its numeric columns with `Number` (see `numeric`).
 */
export function* sqlRows<T>(db: DbOrTx, query: SQL): Steps<T[]> {
  if (isPostgres(db)) {
    const pg = db as unknown as PgDb;
    // Run when the driver asks (its `execute` with parameters, here none to bind), in the steps' order.
    const found = { execute: async () => (await pg.execute(query)).rows as T[] };
    return (yield { kind: 'rows', query: found, params: {} }) as T[];
  }
  return (yield { kind: 'rows', query: { all: () => (db as Db).all<T>(query) } }) as T[];
}

/** `row` of numbers as numbers: PostgreSQL's counts and sums of bigints come as text; SQLite's as numbers. */
export function numeric<Row extends object, K extends keyof Row>(row: Row, keys: readonly K[]): Row {
  const out = { ...row };
  for (const key of keys) {
    const value = out[key];
    if (value !== null && value !== undefined) out[key] = Number(value) as Row[K];
  }
  return out;
}
