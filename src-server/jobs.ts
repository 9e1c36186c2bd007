import type { BackgroundJob } from './background-job.ts';
import type { AppDeps } from './deps.ts';
import { accountsCleanupJob } from './services/accounts/cleanup.ts';
import { cancellationJob } from './services/bookings/cancellation-job.ts';
import { searchCleanupJob } from './services/catalog/drop-ended-from-search.ts';
import { eInvoicingJob } from './services/invoices/register-e-invoices.ts';
import { mailSenderJob } from './services/mail/sender.ts';
import { diskWatchJob } from './services/operations/disk-watch.ts';
import { holdSweeperJob, paymentReconcilerJob } from './services/payments/jobs.ts';
import { refundJob } from './services/refunds/refund-job.ts';
import { waitingRoomAdmitterJob } from './services/waiting-room/admit-visitors.ts';
import { waitlistJob } from './services/waitlist/waitlist-job.ts';

/**
 * Background work that runs in the server process (hold sweeper, payment reconciler, outbox sender).
 * Each area adds its job to this list.
 */
export const BACKGROUND_JOBS: BackgroundJob[] = [
  mailSenderJob,
  accountsCleanupJob,
  holdSweeperJob,
  paymentReconcilerJob,
  cancellationJob,
  refundJob,
  searchCleanupJob,
  waitlistJob,
  waitingRoomAdmitterJob,
  diskWatchJob,
  eInvoicingJob,
];

/**
 * Whether this process runs `job` now. One SQLite process runs every job (with WEB_CONCURRENCY the
 * cluster starts jobs in one worker only); several servers on PostgreSQL ask the database who leads each
 * job (`pgJobLeadership`, ADR 0035), so every job runs on exactly one of them at a time.
 */
export type JobLeadership = (job: string) => Promise<boolean> | boolean;

export function startBackgroundJobs(
  deps: AppDeps,
  jobs: BackgroundJob[] = BACKGROUND_JOBS,
  leads: JobLeadership = () => true,
) {
  const timers = jobs.map((job) => {
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        if (await leads(job.name)) await job.run(deps);
      } catch (err) {
        deps.logger.error({ err, job: job.name }, 'background job failed');
      } finally {
        running = false;
      }
    };
    const timer = setInterval(tick, deps.env.JOB_INTERVAL_MS ?? job.intervalMs);
    timer.unref();
    const first = job.runAtStart ? setTimeout(tick, 0) : undefined;
    first?.unref();
    return { timer, first };
  });
  return {
    stop: () =>
      timers.forEach(({ timer, first }) => {
        clearInterval(timer);
        clearTimeout(first);
      }),
  };
}
