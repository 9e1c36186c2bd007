import cluster, { type Worker } from 'node:cluster';

/** Tells each forked worker its place (0 .. workers-1); a replacement gets the index of the worker it replaces. */
export const WORKER_INDEX_ENV = 'JALSA_WORKER_INDEX';

/** What a worker is told when it starts. */
export interface WorkerInfo {
  /** 0 .. workers-1, stable across restarts of that slot. */
  index: number;
  /** True in exactly one worker (index 0): it alone runs the background jobs. */
  runsJobs: boolean;
}

/** What `startWorker` hands back: how to stop the server it started. */
export interface StartedWorker {
  /** Graceful stop (stop accepting, let in-flight requests finish, close the database), then exit. */
  shutdown: (reason: string) => void;
  /** Synchronous last words before the process ends at once (stop timers, close the database). */
  closeNow: () => void;
}

/** The few logger methods used (a pino logger fits). */
export interface ClusterLogger {
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
}

export interface ServerProcessesOptions {
  /** How many worker processes serve the port (at least 1). */
  workers: number;
  /** Runs once in the primary before any worker is forked (migrations, demo data, generated secrets). */
  prepare?: () => void | Promise<void>;
  /** Runs in each worker: open what it needs and start listening. */
  startWorker: (worker: WorkerInfo) => StartedWorker | Promise<StartedWorker>;
  logger: ClusterLogger;
  /** How long the primary waits for its workers after SIGTERM/SIGINT before killing them (default 15 s). */
  shutdownTimeoutMs?: number;
}

/** First wait before replacing a crashed worker; doubles for each crash in a row, up to MAX_RESTART_DELAY_MS. */
export const RESTART_DELAY_MS = 250;
export const MAX_RESTART_DELAY_MS = 10_000;
/** A worker that lived this long resets its slot's backoff: its crash was not part of a crash loop. */
const HEALTHY_AFTER_MS = 30_000;

/**
 * Several processes serving one port with `node:cluster` (the primary accepts connections and hands them
 * to the workers round-robin). Call it from the entry file: in the primary it runs `prepare()` once and
 * forks `workers` copies of the same entry file; in each worker it calls `startWorker`.
 *
 * - A worker that dies while the primary is not stopping is replaced by one with the same index (so the
 *   background jobs of worker 0 come back), after a backoff that grows while the slot keeps crashing.
 * - If a worker dies before any worker has ever started listening (a bad configuration, a port in use),
 *   the primary stops the rest and exits 1, as a single process would have failed to start.
 * - SIGTERM or SIGINT on the primary: no more replacements, SIGTERM to every worker (each shuts down
 *   gracefully), exit 0 once all have exited; after `shutdownTimeoutMs` the rest are killed and it exits 1.
 * - A worker whose primary is gone (even kill -9) exits by itself: Node's cluster ends a worker as soon as
 *   its IPC channel to the primary closes; before that the worker stops its timers and closes its database.
 */
export async function runServerProcesses(options: ServerProcessesOptions): Promise<void> {
  if (cluster.isPrimary) await runPrimary(options);
  else await runWorker(options);
}

async function runPrimary({
  workers,
  prepare,
  logger,
  shutdownTimeoutMs = 15_000,
}: ServerProcessesOptions): Promise<void> {
  if (!Number.isInteger(workers) || workers < 1)
    throw new Error(`workers must be a positive integer, got ${workers}`);
  await prepare?.();

  const slots = Array.from({ length: workers }, () => ({ crashesInARow: 0, startedAt: 0 }));
  const running = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;
  let anyListened = false;

  const fork = (index: number) => {
    slots[index]!.startedAt = Date.now();
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index) });
    running.add(worker);
    worker.once('listening', () => {
      anyListened = true;
    });
    worker.once('exit', (code, signal) => {
      running.delete(worker);
      if (stopping) {
        if (running.size === 0) process.exit(exitCode);
        return;
      }
      const workerPid = worker.process.pid;
      if (!anyListened) {
        logger.error({ worker: index, workerPid, code, signal }, 'worker exited before serving: stopping');
        stopAll('startup failure', 1);
        return;
      }
      const slot = slots[index]!;
      if (Date.now() - slot.startedAt >= HEALTHY_AFTER_MS) slot.crashesInARow = 0;
      const delay = Math.min(RESTART_DELAY_MS * 2 ** slot.crashesInARow, MAX_RESTART_DELAY_MS);
      slot.crashesInARow += 1;
      logger.warn(
        { worker: index, workerPid, code, signal, restartInMs: delay },
        'worker exited unexpectedly: replacing it',
      );
      setTimeout(() => {
        if (!stopping) fork(index);
      }, delay);
    });
  };

  const stopAll = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason, workers: running.size }, 'stopping workers');
    if (running.size === 0) process.exit(exitCode);
    for (const worker of running) worker.process.kill('SIGTERM');
    // Workers give their in-flight requests 10 s; anything still alive after that is stuck.
    setTimeout(() => {
      for (const worker of running) worker.process.kill('SIGKILL');
      logger.error({ workers: running.size }, 'workers did not stop in time: killed');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
  };

  process.on('SIGTERM', () => stopAll('SIGTERM', 0));
  process.on('SIGINT', () => stopAll('SIGINT', 0));
  for (let index = 0; index < workers; index += 1) fork(index);
}

async function runWorker({ startWorker, logger }: ServerProcessesOptions): Promise<void> {
  const index = Number(process.env[WORKER_INDEX_ENV] ?? '0');
  const started = await startWorker({ index, runsJobs: index === 0 });
  logger.info({ worker: index, runsJobs: index === 0 }, 'worker started');

  process.on('SIGTERM', () => started.shutdown('SIGTERM'));
  process.on('SIGINT', () => started.shutdown('SIGINT'));
  // Listened for on the worker, not on `process`: Node's own 'disconnect' handler emits this event and
  // then calls process.exit() straight away, so a handler on `process` would never run.
  cluster.worker?.on('disconnect', () => {
    if (cluster.worker?.exitedAfterDisconnect) return;
    logger.warn({ worker: index }, 'primary process is gone: exiting');
    started.closeNow();
  });
}
