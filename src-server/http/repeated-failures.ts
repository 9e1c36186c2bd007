import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { Logger } from '../logger.ts';

/** One full line per distinct failure in this window; the repeats are counted, not written. */
export const REPEAT_WINDOW_MS = 60_000;

/**
 * Logs an unexpected failure with its stack once per minute per kind (the line's message and the
 * error's, whatever the path: a full disk fails every procedure alike), and counts the repeats: on a full disk every request failed the same way, and
 * 53,584 failed requests wrote 75.8 MB of log in 25 s, filling the disk further (issue 37). The next
 * line of that kind after the minute carries `repeats`, how many were left out. Each request's own
 * access line still records its 500.
 *
 * State lives in the returned function, made once per app (so per deps, ADR 0031).
 */
export function failureLog(now: () => Date) {
  const seen = new Map<string, { since: number; repeats: number }>();
  return (logger: Logger, err: unknown, msg: string, fields: Record<string, unknown> = {}) => {
    const at = now().getTime();
    const key = `${msg}\u0000${messageOf(err)}`;
    const entry = seen.get(key);
    if (entry && at - entry.since < REPEAT_WINDOW_MS) {
      entry.repeats += 1;
      return;
    }
    const repeats = entry?.repeats ?? 0;
    seen.set(key, { since: at, repeats: 0 });
    // Distinct messages (an id in each) must not grow the map without bound: the oldest go first.
    if (seen.size > 1_000) seen.delete(seen.keys().next().value!);
    logger.error({ ...fields, err, ...(repeats > 0 && { repeats }) }, msg);
  };
}

function messageOf(err: unknown): string {
  // On PostgreSQL Drizzle wraps the database's error in one whose message is the query with its
  // parameters (a time, an address, an id: different on every request), so each failure of a full disk
  // was a kind of its own and written in full again. The kind is the database's own error, as SQLite's is.
  if (err instanceof DrizzleQueryError && err.cause) return messageOf(err.cause);
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
