import type { Db } from './client.ts';
import { writeWhenFree } from './write-when-free.ts';

/** The transaction a write runs in; nested `tx.transaction(…)` calls are savepoints of it. */
export type WriteTx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The one way to run a write transaction: `BEGIN IMMEDIATE` … `COMMIT` (ROLLBACK when `work` throws),
 * started when the database's write lock is free (`writeWhenFree`: with several server processes the
 * wait happens on the event loop, not in SQLite's busy handler).
 *
 * Why IMMEDIATE: a deferred transaction that reads and then writes holds only a read snapshot until its
 * first write. If another process commits in between, SQLite cannot upgrade that snapshot to a write
 * and fails at once with SQLITE_BUSY_SNAPSHOT (or SQLITE_BUSY), without waiting: a 500 for a sign-up or
 * a reset request that did nothing wrong (issue 18). Taking the write lock at BEGIN means every read
 * inside sees the latest data and the writes always succeed; a BEGIN that finds the lock taken has done
 * nothing yet, so trying it again is safe.
 *
 * `work` must be synchronous and short: better-sqlite3 runs the whole transaction on this thread.
 */
export function writeTransaction<T>(db: Db, work: (tx: WriteTx) => T): Promise<T> {
  return writeWhenFree(db.$client, () => db.transaction(work, { behavior: 'immediate' }));
}
