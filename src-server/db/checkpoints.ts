import type Database from 'better-sqlite3';

/** WAL pages a commit may leave before it checkpoints in line: the backstop when the timer falls behind. */
export const AUTOCHECKPOINT_PAGES = 10_000;
/** How often the serving process copies the WAL back into the database file. */
export const CHECKPOINT_EVERY_MS = 1_000;

/**
 * Checkpoints off the request path (ADR 0029). SQLite's default checkpoints in line: the commit that
 * takes the WAL past 1,000 pages copies them into the database file and syncs it while every buyer
 * behind it waits, and in a rush that happens every few dozen commits, copying the same hot table and
 * index pages each time. Here a passive checkpoint runs once a second on a timer instead, and the
 * in-line one only past 10,000 pages (≈ 40 MB of WAL), when the timer cannot keep up. A passive
 * checkpoint never waits for a reader or a writer.
 *
 * Durability: with `synchronous = NORMAL` the WAL is synced at a checkpoint, so a power cut loses at
 * most the commits since the last one: now about a second's, where before a quiet server could go
 * minutes without reaching 1,000 pages. A killed process loses nothing either way.
 *
 * Returns a stop function; call it before closing the connection.
 */
export function checkpointOffTheRequestPath(
  sqlite: Database.Database,
  everyMs: number = CHECKPOINT_EVERY_MS,
): () => void {
  sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  const timer = setInterval(() => {
    try {
      sqlite.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Another process is checkpointing the same file (WEB_CONCURRENCY > 1): next second, then.
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
