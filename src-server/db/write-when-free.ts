import type Database from 'better-sqlite3';
import { oncePer } from './once-per.ts';

/**
 * Runs one write (a single statement, or one transaction) as soon as the database's write lock is
 * free, without blocking the event loop while another process holds it.
 *
 * With several server processes on one SQLite file (WEB_CONCURRENCY, ADR 0009), a write that finds
 * the lock taken waits in SQLite's busy handler, which sleeps the whole thread for 1, 2, 5… ms: every
 * request of that process waits too, though the other process's transaction takes a fraction of a
 * millisecond. Here each attempt runs with no busy wait; on SQLITE_BUSY the process goes back to its
 * other requests and tries again on the next turn of the event loop. Once the connection's busy
 * time-out has passed, a last attempt waits the ordinary blocking way, so the outcome is never worse
 * than before. Only on connections marked with `writesAlongsideOtherProcesses`: with one server
 * process nothing else writes during a rush, and switching the time-out off and back costs two pragma
 * compiles (≈ 8 µs) per write.
 *
 * `write` must be safe to start again after SQLITE_BUSY: one statement, or one transaction (a refused
 * BEGIN IMMEDIATE has done nothing yet).
 */
export async function writeWhenFree<T>(sqlite: Database.Database, write: () => T): Promise<T> {
  if (!sharedConnections.has(sqlite)) return write();
  const usualMs = usualBusyTimeoutOf(sqlite);
  const deadline = Date.now() + usualMs;
  for (let attempt = 1; Date.now() < deadline; attempt += 1) {
    // Compiled each time on purpose: SQLite applies this pragma when compiling it, not when running it.
    sqlite.pragma('busy_timeout = 0');
    try {
      return write();
    } catch (err) {
      if (!isBusy(err)) throw err;
    } finally {
      sqlite.pragma(`busy_timeout = ${usualMs}`);
    }
    // The next turn of the loop first; then a millisecond apart, so a long wait does not spin a core
    // the lock's holder may need.
    await new Promise<void>((resolve) => (attempt === 1 ? setImmediate(resolve) : setTimeout(resolve, 1)));
  }
  return write();
}

const sharedConnections = new WeakSet<Database.Database>();

/** Marks a connection to a file that other server processes write to as well (WEB_CONCURRENCY > 1). */
export function writesAlongsideOtherProcesses(sqlite: Database.Database): void {
  sharedConnections.add(sqlite);
}

/** The connection's busy time-out as first seen here (openDatabase sets it once). */
const usualBusyTimeoutOf = oncePer(
  (sqlite: Database.Database) => sqlite.pragma('busy_timeout', { simple: true }) as number,
);

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
