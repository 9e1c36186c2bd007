import type { BackgroundJob } from '../../background-job.ts';
import type { AppDeps } from '../../deps.ts';
import { runDueRefunds } from '../refunds/run-due-refunds.ts';
import { cancelBookingsOfCancelledSlots } from './cancel-bookings-of-cancelled-slots.ts';

/** Cancels what cancelled slots and events still have confirmed (left by a restart, or too many for one go). */
export const cancellationJob: BackgroundJob = {
  name: 'cancellations',
  intervalMs: 15_000,
  runAtStart: true,
  run: async (deps) => {
    const cancelled = await cancelBookingsOfCancelledSlots(deps, { maxBatches: 50 });
    if (cancelled > 0) deps.logger.info({ cancelled }, 'bookings of cancelled slots cancelled');
  },
};

/**
 * After a slot or an event was cancelled: cancels its bookings and issues their refunds now rather
 * than at the jobs' next tick. Not awaited and never throws; whatever it leaves, the jobs finish.
 */
export function startCancellationWork(deps: AppDeps): void {
  setImmediate(async () => {
    try {
      await cancelBookingsOfCancelledSlots(deps);
      while ((await runDueRefunds(deps)) > 0) {
        // Each run issues one batch; stop when nothing is due (failures wait for their back-off).
      }
    } catch (err) {
      deps.logger.error({ err }, 'cancellation work stopped; the jobs will finish it');
    }
  });
}
