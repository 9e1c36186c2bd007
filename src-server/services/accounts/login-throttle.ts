import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { failedLogins } from '../../db/schema/accounts.ts';

/**
 * Failed sign-in limits (docs/decisions/0003-accounts.md): within any 15-minute window, 5 failures for
 * one e-mail address, or 20 from one client address, block further attempts until old failures age out.
 * The per-address limit is higher because many people share one public address (mobile carriers' NAT,
 * offices, campuses); it still stops one machine from trying a password on many accounts.
 */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export function isSignInBlocked(db: Pick<Db, 'select'>, email: string, ip: string, now: Date): boolean {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS).toISOString();
  const forAccount = db
    .select({ n: count() })
    .from(failedLogins)
    .where(and(eq(failedLogins.email, email), gt(failedLogins.createdAt, since)))
    .get();
  if ((forAccount?.n ?? 0) >= MAX_FAILURES_PER_ACCOUNT) return true;
  const forAddress = db
    .select({ n: count() })
    .from(failedLogins)
    .where(and(eq(failedLogins.ip, ip), gt(failedLogins.createdAt, since)))
    .get();
  return (forAddress?.n ?? 0) >= MAX_FAILURES_PER_ADDRESS;
}

export function recordFailedSignIn(db: Pick<Db, 'insert'>, email: string, ip: string, now: Date): void {
  db.insert(failedLogins).values({ email, ip, createdAt: now.toISOString() }).run();
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
