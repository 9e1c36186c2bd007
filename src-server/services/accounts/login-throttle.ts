import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { failedLogins } from '../../db/schema/accounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

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
 * the password is checked; a successful sign-in clears it again (`clearFailedSignIns`). Checking first
 * and recording after the slow password hash let every request already waiting for its hash through:
 * a tRPC batch of 400 guesses, or 60 parallel connections, all passed a check that counted none of the
 * others. Now each attempt counts the moment it is let in, so however the requests are bundled or
 * interleaved, at most the allowed number of passwords is ever checked. BEGIN IMMEDIATE takes the write
 * lock before the count, so server processes sharing the file (WEB_CONCURRENCY) cannot both pass on
 * the same count either.
 */
export function claimSignInAttempt(db: Db, email: string, ip: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  return writeTransaction(db, (tx) => {
    const forAccount = tx
      .select({ n: count() })
      .from(failedLogins)
      .where(and(eq(failedLogins.email, email), gt(failedLogins.createdAt, since)))
      .get();
    if ((forAccount?.n ?? 0) >= MAX_FAILURES_PER_ACCOUNT) return false;
    const forAddress = tx
      .select({ n: count() })
      .from(failedLogins)
      .where(and(eq(failedLogins.ip, ip), gt(failedLogins.createdAt, since)))
      .get();
    if ((forAddress?.n ?? 0) >= MAX_FAILURES_PER_ADDRESS) return false;
    tx.insert(failedLogins).values({ email, ip, createdAt: now.toISOString() }).run();
    return true;
  });
}

/** After a successful sign-in or a password reset the account's count starts again. */
export function clearFailedSignIns(db: Pick<Db, 'delete'>, email: string): void {
  db.delete(failedLogins).where(eq(failedLogins.email, email)).run();
}

export function pruneFailedSignIns(db: Pick<Db, 'delete'>, now: Date): void {
  db.delete(failedLogins)
    .where(lt(failedLogins.createdAt, new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString()))
    .run();
}
