import type { RateLimit } from './rate-limits.ts';

/**
 * A per-process rate limit kept in memory, for reads that must stay reads: counting them in the
 * database (`takeRateLimited`) would make every search a write transaction. Each key keeps the times
 * of its last `max` requests; with several server processes (WEB_CONCURRENCY) each counts its own.
 * At most `maxKeys` keys are remembered (the least recently seen are forgotten first), so memory is
 * bounded whatever the number of clients.
 */
export function memoryRateLimit(limit: RateLimit, maxKeys = 10_000) {
  const seen = new Map<string, number[]>();
  return {
    /** True (and the request counted) when `key` is under the limit at `now`; false otherwise. */
    take(key: string, now: number): boolean {
      const times = (seen.get(key) ?? []).filter((t) => now - t < limit.windowMs);
      seen.delete(key);
      if (times.length >= limit.max) {
        seen.set(key, times);
        return false;
      }
      times.push(now);
      seen.set(key, times);
      if (seen.size > maxKeys) seen.delete(seen.keys().next().value!);
      return true;
    },
  };
}
