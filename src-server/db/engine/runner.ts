import type { Db, DbOrTx } from '../client.ts';
import { oncePer } from '../once-per.ts';
import { writeTransaction } from '../write-transaction.ts';
import { type PgDb, pgWriteTransaction } from './postgres.ts';
import { isPostgres } from './reads.ts';
import { runAsync, runSync, type Steps } from './steps.ts';

/**
 * How a use case made of several transitions (a read, then a write transaction; a transaction per
 * room) runs them on its engine (ADR 0045), so the use case itself is written once too: `read` runs
 * steps outside a transaction (each statement on its own), `write` runs them as one write transaction.
 */
export interface TransitionRunner {
  read<T>(steps: (db: DbOrTx) => Steps<T>): Promise<T>;
  write<T>(steps: (tx: DbOrTx) => Steps<T>): Promise<T>;
}

/**
 * SQLite's: steps run at once on better-sqlite3, a write inside `writeTransaction`. They are given the
 * database itself, not the transaction object Drizzle makes anew for each transaction: both run on the
 * one connection, and queries prepared per database (`preparedQueries`) are then prepared once, not
 * once per transaction.
 */
export const sqliteRunner = oncePer(
  (db: Db): TransitionRunner => ({
    read: (steps) => Promise.resolve(runSync(steps(db))),
    write: (steps) => writeTransaction(db, () => runSync(steps(db))),
  }),
);

/** PostgreSQL's: reads on the pool, a write as one transaction on one pooled connection. */
export const postgresRunner = oncePer(
  (db: PgDb): TransitionRunner => ({
    read: (steps) => runAsync(steps(db as unknown as DbOrTx), db),
    write: (steps) => pgWriteTransaction(db, steps),
  }),
);

/** The runner of the engine `db` was opened on, as the composition root opened it. */
export function runnerFor(db: Db): TransitionRunner {
  return isPostgres(db) ? postgresRunner(db as unknown as PgDb) : sqliteRunner(db);
}
