import type { AppDeps } from './deps.ts';

/** Work that runs every `intervalMs` in the one process that runs jobs (jobs.ts lists them). */
export interface BackgroundJob {
  name: string;
  intervalMs: number;
  /** Also run once right after start-up (work left in the database by a previous process). */
  runAtStart?: boolean;
  run: (deps: AppDeps) => Promise<void> | void;
}
