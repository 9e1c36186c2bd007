import { lt } from 'drizzle-orm';
import { emailVerificationTokens, passwordResetTokens, sessions } from '../../db/schema/accounts.ts';
import type { AppDeps } from '../../deps.ts';
import type { BackgroundJob } from '../../jobs.ts';
import { pruneRateLimitHits } from '../rate-limits/rate-limits.ts';
import { pruneFailedSignIns } from './login-throttle.ts';

/** Deletes expired sessions and links, and failed sign-ins and rate-limit counts older than their window. */
export function pruneExpiredAccountRows(deps: Pick<AppDeps, 'db' | 'clock'>): void {
  const now = deps.clock.now();
  const at = now.toISOString();
  deps.db.transaction((tx) => {
    tx.delete(sessions).where(lt(sessions.expiresAt, at)).run();
    tx.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, at)).run();
    tx.delete(emailVerificationTokens).where(lt(emailVerificationTokens.expiresAt, at)).run();
    pruneFailedSignIns(tx, now);
    pruneRateLimitHits(tx, now);
  });
}

export const accountsCleanupJob: BackgroundJob = {
  name: 'accounts-cleanup',
  intervalMs: 10 * 60_000,
  run: (deps) => pruneExpiredAccountRows(deps),
};
