import { lt } from 'drizzle-orm';
import type { BackgroundJob } from '../../background-job.ts';
import { emailVerificationTokens, passwordResetTokens, sessions } from '../../db/schema/accounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { pruneRateLimitHits } from '../rate-limits/rate-limits.ts';
import { pruneFailedSignIns } from './login-throttle.ts';

/** Deletes expired sessions and links, and failed sign-ins and rate-limit counts older than their window. */
export function pruneExpiredAccountRows(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<void> {
  const now = deps.clock.now();
  const at = now.toISOString();
  return writeTransaction(deps.db, (tx) => {
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
