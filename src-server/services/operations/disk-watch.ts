import type { BackgroundJob } from '../../background-job.ts';
import type { AppDeps } from '../../deps.ts';
import { diskOf } from './site-health.ts';

/** While the disk stays low, the warning is repeated this often (not every minute). */
const REPEAT_MS = 10 * 60_000;
const MB = 1024 * 1024;

const lastWarned = new WeakMap<AppDeps, { level: 'warn' | 'error'; at: number }>();

/**
 * Warns in the log before DATA_DIR's disk fills (issue 37): from twice DISK_FREE_MIN_MB down a warning,
 * below it an error (and /readyz says so), each repeated every 10 minutes while it lasts, and one line
 * when space is back. On a full disk every write fails; the warning comes while there is time to act.
 */
export function watchDisk(deps: AppDeps): void {
  // The disk alone: no database read for it, on either engine.
  const diskFreeBytes = diskOf(deps.env.DATA_DIR).free;
  const min = deps.env.DISK_FREE_MIN_MB * MB;
  const level = diskFreeBytes < min ? 'error' : diskFreeBytes < 2 * min ? 'warn' : null;
  const now = deps.clock.now().getTime();
  const last = lastWarned.get(deps);
  if (!level) {
    if (last) deps.logger.info({ freeMb: Math.floor(diskFreeBytes / MB) }, 'disk space in DATA_DIR is back');
    lastWarned.delete(deps);
    return;
  }
  if (last && last.level === level && now - last.at < REPEAT_MS) return;
  lastWarned.set(deps, { level, at: now });
  deps.logger[level](
    { freeMb: Math.floor(diskFreeBytes / MB), minimumMb: deps.env.DISK_FREE_MIN_MB },
    level === 'error'
      ? 'disk almost full: writes (bookings, sign-ups) will fail soon; free space in DATA_DIR now'
      : 'disk space in DATA_DIR is running low',
  );
}

export const diskWatchJob: BackgroundJob = {
  name: 'disk-watch',
  intervalMs: 60_000,
  runAtStart: true,
  run: watchDisk,
};
