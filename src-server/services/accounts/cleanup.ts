import { lt } from 'drizzle-orm';
import type { BackgroundJob } from '../../background-job.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { pruneRateLimitHitsSteps } from '../rate-limits/rate-limits.ts';
import { pruneFailedSignInsSteps } from './login-throttle.ts';

/** Deletes expired sessions and links, and failed sign-ins and rate-limit counts older than their window. */
export function pruneExpiredAccountRows(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<void> {
  const now = deps.clock.now();
  const at = now.toISOString();
  return runnerFor(deps.db).write(function* (tx) {
    const { sessions, passwordResetTokens, emailVerificationTokens } = tablesOf(tx);
    yield* changes(tx.delete(sessions).where(lt(sessions.expiresAt, at)));
    yield* changes(tx.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, at)));
    yield* changes(tx.delete(emailVerificationTokens).where(lt(emailVerificationTokens.expiresAt, at)));
    yield* pruneFailedSignInsSteps(tx, now);
    yield* pruneRateLimitHitsSteps(tx, now);
  });
}

export const accountsCleanupJob: BackgroundJob = {
  name: 'accounts-cleanup',
  intervalMs: 10 * 60_000,
  run: (deps) => pruneExpiredAccountRows(deps),
};
