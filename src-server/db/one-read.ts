import type { Db } from './client.ts';
import { transactionOf } from './transaction-of.ts';

/**
 * Runs several reads in one read transaction: one snapshot, so a list's page and its count agree, and
 * one transaction's cost instead of one per statement. An autocommit statement opens and closes its own
 * read transaction, 7–10 µs each on this VM, as much as a small indexed query (docs/benchmarks.md).
 * Already inside a transaction, the reads simply join it. `read` must be synchronous.
 */
export function inOneRead<T>(db: Db, read: () => T): T {
  const sqlite = db.$client;
  return sqlite.inTransaction ? read() : (transactionOf(sqlite)(read) as T);
}
