import type { BackgroundJob } from './background-job.ts';
import type { AppDeps } from './deps.ts';
import { accountsCleanupJob } from './services/accounts/cleanup.ts';
import { mailSenderJob } from './services/mail/sender.ts';
import { holdSweeperJob, paymentReconcilerJob } from './services/payments/jobs.ts';

/**
 * Background work that runs in the server process (hold sweeper, payment reconciler, outbox sender).
 * Each area adds its job to this list.
 */
export const BACKGROUND_JOBS: BackgroundJob[] = [
  mailSenderJob,
  accountsCleanupJob,
  holdSweeperJob,
  paymentReconcilerJob,
];

export function startBackgroundJobs(deps: AppDeps, jobs: BackgroundJob[] = BACKGROUND_JOBS) {
  const timers = jobs.map((job) => {
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      try {
        await job.run(deps);
      } catch (err) {
        deps.logger.error({ err, job: job.name }, 'background job failed');
      } finally {
        running = false;
      }
    }, deps.env.JOB_INTERVAL_MS ?? job.intervalMs);
    timer.unref();
    return timer;
  });
  return { stop: () => timers.forEach(clearInterval) };
}
