import type { BackgroundJob } from '../../background-job.ts';
import { runDueRefunds } from './run-due-refunds.ts';

/** Issues queued refunds and retries failed ones with back-off; also runs once at start-up. */
export const refundJob: BackgroundJob = {
  name: 'refunds',
  intervalMs: 10_000,
  runAtStart: true,
  run: async (deps) => {
    const tried = await runDueRefunds(deps);
    if (tried > 0) deps.logger.info({ tried }, 'refunds issued');
  },
};
