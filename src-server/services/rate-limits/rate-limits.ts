import { and, count, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rateLimitHits } from '../../db/schema/rate-limits.ts';
import { type WriteTx, writeTransaction } from '../../db/write-transaction.ts';

/** At most `max` requests in any `windowMs` for each value of what the limit counts by. */
export interface RateLimit {
  name: string;
  max: number;
  windowMs: number;
}

/**
 * Lets a request through and counts it against every limit given, or refuses it and counts nothing:
 * one step, so parallel requests cannot all pass on the same count. The write transaction takes the
 * write lock before counting, which makes it one step across server processes too (WEB_CONCURRENCY).
 * Requests are counted when they arrive, not when they succeed: what is limited is the asking.
 */
export function takeRateLimited(
  db: Db,
  counted: { limit: RateLimit; key: string }[],
  now: Date,
): Promise<boolean> {
  return writeTransaction(db, (tx) => takeRateLimitedIn(tx, counted, now));
}

/**
 * `takeRateLimited` inside the caller's write transaction, for a use case that decides more in the same
 * step. The caller must commit the transaction also when it refuses for its own reasons, or the request
 * goes uncounted.
 */
export function takeRateLimitedIn(
  tx: WriteTx,
  counted: { limit: RateLimit; key: string }[],
  now: Date,
): boolean {
  const at = now.toISOString();
  for (const { limit, key } of counted) {
    const recent = tx
      .select({ n: count() })
      .from(rateLimitHits)
      .where(
        and(
          eq(rateLimitHits.limitName, limit.name),
          eq(rateLimitHits.key, key),
          gt(rateLimitHits.expiresAt, at),
        ),
      )
      .get();
    if ((recent?.n ?? 0) >= limit.max) return false;
  }
  for (const { limit, key } of counted) {
    const expiresAt = new Date(now.getTime() + limit.windowMs).toISOString();
    tx.insert(rateLimitHits).values({ limitName: limit.name, key, expiresAt }).run();
  }
  return true;
}

/** Drops requests whose window has passed (the accounts clean-up job). */
export function pruneRateLimitHits(db: Pick<Db, 'delete'>, now: Date): void {
  db.delete(rateLimitHits).where(lte(rateLimitHits.expiresAt, now.toISOString())).run();
}
