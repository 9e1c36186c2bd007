import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/**
 * Sign-in limits (docs/decisions/0003-accounts.md): within any 15-minute window, 5 password checks that
 * did not succeed for one e-mail address, or 20 from one client address, block further attempts until
 * old ones age out. The per-address limit is higher because many people share one public address
 * (mobile carriers' NAT, offices, campuses); it still stops one machine from trying a password on many
 * accounts.
 */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/**
 * Checks the limits and, if the attempt may go ahead, records it as a failure in the same step, before
 * the password is checked; a successful sign-in clears it again (`clearFailedSignInsSteps`). Checking
 * first and recording after the slow password hash let every request already waiting for its hash
 * through: a tRPC batch of 400 guesses, or 60 parallel connections, all passed a check that counted
 * none of the others. Now each attempt counts the moment it is let in, so however the requests are
 * bundled or interleaved, at most the allowed number of passwords is ever checked. On SQLite BEGIN
 * IMMEDIATE takes the write lock before the count, so server processes sharing the file
 * (WEB_CONCURRENCY) cannot both pass on the same count; on PostgreSQL the e-mail's and the client
 * address's advisory locks do that.
 */
export function claimSignInAttempt(db: Db, email: string, ip: string, now: Date): Promise<boolean> {
  return runnerFor(db).write((tx) => claimSignInAttemptSteps(tx, email, ip, now));
}

function* claimSignInAttemptSteps(tx: DbOrTx, email: string, ip: string, now: Date): Steps<boolean> {
  const { failedLogins } = tablesOf(tx);
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  // In one order (the account's key sorts first), so two attempts never wait on each other's lock.
  yield* serialize(`sign-in:account:${email}`);
  yield* serialize(`sign-in:client:${ip}`);
  const forAccount = yield* row(
    tx
      .select({ n: count() })
      .from(failedLogins)
      .where(and(eq(failedLogins.email, email), gt(failedLogins.createdAt, since))),
  );
  if (Number(forAccount?.n ?? 0) >= MAX_FAILURES_PER_ACCOUNT) return false;
  const forAddress = yield* row(
    tx
      .select({ n: count() })
      .from(failedLogins)
      .where(and(eq(failedLogins.ip, ip), gt(failedLogins.createdAt, since))),
  );
  if (Number(forAddress?.n ?? 0) >= MAX_FAILURES_PER_ADDRESS) return false;
  yield* changes(tx.insert(failedLogins).values({ email, ip, createdAt: now.toISOString() }));
  return true;
}

/** After a successful sign-in or a password reset the account's count starts again. */
export function* clearFailedSignInsSteps(tx: DbOrTx, email: string): Steps<void> {
  const { failedLogins } = tablesOf(tx);
  yield* changes(tx.delete(failedLogins).where(eq(failedLogins.email, email)));
}

export function* pruneFailedSignInsSteps(tx: DbOrTx, now: Date): Steps<void> {
  const { failedLogins } = tablesOf(tx);
  yield* changes(
    tx
      .delete(failedLogins)
      .where(lt(failedLogins.createdAt, new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString())),
  );
}
