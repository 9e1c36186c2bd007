import { and, count, eq, gt, lte } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, runSync, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';

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
  // The engine's runner: SQLite's writeTransaction as before, or one transaction on PostgreSQL.
  return runnerFor(db).write((tx) => rateLimitSteps(tx as WriteTx, counted, now));
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
  return runSync(rateLimitSteps(tx, counted, now));
}

/**
 * The rate limit as a transition written once for both engines (ADR 0045): count, then record, each
 * (limit, key) serialised so that two transactions cannot both pass on the same count. On SQLite the
 * write lock already does that; on PostgreSQL it is an advisory lock held until the transaction ends.
 */
export function* rateLimitSteps(
  tx: WriteTx,
  counted: { limit: RateLimit; key: string }[],
  now: Date,
): Steps<boolean> {
  const { rateLimitHits } = tablesOf(tx);
  const at = now.toISOString();
  // Locks in one order (by name and key), so two requests counting the same pair never deadlock.
  const ordered = [...counted].sort((a, b) => lockKey(a).localeCompare(lockKey(b)));
  for (const entry of ordered) yield* serialize(lockKey(entry));
  for (const { limit, key } of counted) {
    const recent = yield* row(
      tx
        .select({ n: count() })
        .from(rateLimitHits)
        .where(
          and(
            eq(rateLimitHits.limitName, limit.name),
            eq(rateLimitHits.key, key),
            gt(rateLimitHits.expiresAt, at),
          ),
        ),
    );
    if (Number(recent?.n ?? 0) >= limit.max) return false;
  }
  for (const { limit, key } of counted) {
    const expiresAt = new Date(now.getTime() + limit.windowMs).toISOString();
    yield* changes(tx.insert(rateLimitHits).values({ limitName: limit.name, key, expiresAt }));
  }
  return true;
}

function lockKey({ limit, key }: { limit: RateLimit; key: string }): string {
  return `rate-limit:${limit.name}:${key}`;
}

/** Drops requests whose window has passed (the accounts clean-up job), on either engine. */
export function* pruneRateLimitHitsSteps(tx: DbOrTx, now: Date): Steps<void> {
  const { rateLimitHits } = tablesOf(tx);
  yield* changes(tx.delete(rateLimitHits).where(lte(rateLimitHits.expiresAt, now.toISOString())));
}
