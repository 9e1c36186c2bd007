import type Database from 'better-sqlite3';
import { oncePer } from './once-per.ts';

/**
 * One better-sqlite3 transaction function per connection that runs whatever it is given: call it for
 * BEGIN … COMMIT (a SAVEPOINT when a transaction is already open), `.immediate` for BEGIN IMMEDIATE.
 * Building one per call (`sqlite.transaction(work)`) cost ≈ 10 µs, more than the BEGIN and COMMIT
 * themselves.
 */
export const transactionOf = oncePer((sqlite: Database.Database) =>
  sqlite.transaction((work: () => unknown) => work()),
);
