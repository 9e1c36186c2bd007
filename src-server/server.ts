import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import type { AppDeps } from './deps.ts';
import { startBackgroundJobs } from './jobs.ts';
import type { StartedWorker } from './process/cluster.ts';

type Fetch = ReturnType<typeof createApp>['fetch'];

export interface ServerOptions {
  port: number;
  hostname: string;
  /** Whether this process runs the background jobs (exactly one process does). */
  runJobs: boolean;
  /** Puts something in front of the app (the benchmarks' baseline routes). */
  wrapFetch?: (appFetch: Fetch) => Fetch;
  onListening?: (port: number) => void;
}

/**
 * Serves the app (the one process, or one worker under WEB_CONCURRENCY) and, if asked, runs the
 * background jobs. The benchmarks start their server through this too, so they measure this code.
 */
export function startServer(deps: AppDeps, options: ServerOptions): StartedWorker {
  const jobs = options.runJobs ? startBackgroundJobs(deps) : undefined;
  const appFetch = createApp(deps).fetch;
  const server = serve(
    {
      fetch: options.wrapFetch ? options.wrapFetch(appFetch) : appFetch,
      port: options.port,
      hostname: options.hostname,
    },
    (info) => {
      deps.logger.info(`Jalsa is listening on http://localhost:${info.port}`);
      options.onListening?.(info.port);
    },
  );

  let stopping = false;
  return {
    shutdown(signal) {
      if (stopping) return;
      stopping = true;
      deps.logger.info({ signal }, 'shutting down');
      jobs?.stop();
      server.close(() => {
        deps.sqlite.close();
        process.exit(0);
      });
      // Connections kept alive by browsers would hold close() open; give in-flight requests 10 s.
      setTimeout(() => process.exit(0), 10_000).unref();
    },
    closeNow() {
      jobs?.stop();
      deps.sqlite.close();
    },
  };
}
