import type { BackgroundJob } from '../../background-job.ts';
import { sweepExpiredHolds } from '../inventory/holds.ts';
import { releaseAndPassOnSteps } from '../waitlist/pass-on.ts';
import { reconcilePayments } from './reconcile.ts';

/**
 * Puts expired holds' seats back on sale, even when the buyer never returns; in the same transaction
 * they are offered to the waiting list first, and an expired offer passes to the next in line.
 */
export const holdSweeperJob: BackgroundJob = {
  name: 'hold-sweeper',
  intervalMs: 15_000,
  run: async (deps) => {
    const released = await sweepExpiredHolds(deps.db, deps.clock.now(), 500, (tx, holdId, reason, now) =>
      releaseAndPassOnSteps(tx, deps, holdId, reason, now),
    );
    if (released > 0) deps.logger.info({ released }, 'expired holds released');
  },
};

/** Settles payments whose callback and webhook were both lost, and retries refunds. */
export const paymentReconcilerJob: BackgroundJob = {
  name: 'payment-reconciler',
  intervalMs: 60_000,
  run: async (deps) => {
    const report = await reconcilePayments(deps);
    if (report.paymentsSettled > 0 || report.refundsRetried > 0)
      deps.logger.info(report, 'payments reconciled');
  },
};
