import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { type AppDatabase, openAppDatabase } from './app-database.ts';
import { appSecretFor } from './app-secret.ts';
import { composeDeps } from './compose-deps.ts';
import { seedDemoData } from './db/seed/seed.ts';
import { type AppDeps, systemClock } from './deps.ts';
import type { Env } from './env.ts';
import { inArrivalOrder } from './http/arrival-order.ts';
import { BACKGROUND_JOBS, startBackgroundJobs } from './jobs.ts';
import type { Logger } from './logger.ts';
import { runServerProcesses, type StartedWorker } from './process/cluster.ts';
import { demoSignInNotice, ensureDemoSignIns } from './services/roles/ensure-demo-accounts.ts';

type Fetch = ReturnType<typeof createApp>['fetch'];

/**
 * How long an idle keep-alive connection stays open. A reverse proxy keeps idle upstream connections and
 * reuses them (Caddy for 2 minutes); with Node's default of 5 s the app closes one just as the proxy sends
 * a request on it, which the proxy answers with a 502 and a direct client sees as a reset. Longer than
 * any proxy in deploy/ keeps them; a stop still closes idle connections at once.
 */
const IDLE_CONNECTION_MS = 130_000;

export interface RunOptions {
  /** Puts something in front of the app (the benchmarks' baseline routes). */
  wrapFetch?: (appFetch: Fetch) => Fetch;
  /** Called in each serving process once it listens. */
  onListening?: (port: number) => void;
}

/**
 * Runs the server as configured: one process (WEB_CONCURRENCY=1, the default) or a primary and N workers
 * on one port and one database, of which only worker 0 runs the background jobs (ADR 0009). The database
 * is DATA_DIR's SQLite file, or with DATABASE_URL the PostgreSQL several servers share (ADR 0035), where
 * each job runs on the one server leading it (app-database.ts).
 * `src-server/index.ts` and the benchmarks' server (bench/lib/serve.ts) both start through here.
 */
export async function runServer(env: Env, logger: Logger, options: RunOptions = {}): Promise<void> {
  // CLIENT_DIR lets tests serve a build of their own; normally the client is built into dist/client.
  const clientDirCandidate = path.resolve(
    process.env.CLIENT_DIR ?? path.join(import.meta.dirname, '../dist/client'),
  );
  const clientDir = existsSync(path.join(clientDirCandidate, 'index.html')) ? clientDirCandidate : undefined;

  /**
   * Everything that happens once per start: create the data folder, open the database (on SQLite backing
   * it up first when migrations are pending; on either engine applying them), settle the app secret
   * (app-secret.ts; the primary does it before forking workers that would race to generate it), add demo
   * data to an empty SQLite database (never to a PostgreSQL) and, in development, print how to sign in as the demo admin and
   * organiser (only here, so once per start whatever WEB_CONCURRENCY is).
   */
  const secretOf = (database: AppDatabase) =>
    appSecretFor(database.db, { configured: env.APP_SECRET, dataDir: env.DATA_DIR, now: systemClock.now() });
  const prepareData = async (): Promise<{ database: AppDatabase; appSecret: string }> => {
    // On PostgreSQL too: the generated app secret, the development mailbox and uploads live here.
    mkdirSync(env.DATA_DIR, { recursive: true });
    const database = await openAppDatabase(env, { first: true, logger });
    const appSecret = await secretOf(database);
    if (env.SEED_DEMO_DATA && database.engine === 'postgres') {
      // The demo is the one-machine trial (`npm start`, the README's two commands). A PostgreSQL that
      // several servers share is a real site's database, and made-up events with made-up sales would be
      // listed to its buyers and counted in its reports: it starts empty, whatever SEED_DEMO_DATA says.
      logger.info('PostgreSQL (DATABASE_URL): starting without demo data, which is added on SQLite only');
    } else if (env.SEED_DEMO_DATA) {
      const seeded = await seedDemoData(database.db, systemClock);
      if (seeded > 0) logger.info({ events: seeded }, 'demo data added');
    }
    if (env.SEED_DEMO_DATA && env.NODE_ENV === 'development') {
      const signIns = await ensureDemoSignIns(database.db, appSecret, systemClock.now());
      logger.info(demoSignInNotice(signIns));
    }
    if (!clientDir) logger.warn('dist/client is missing: serving the API only (run `npm run build`)');
    return { database, appSecret };
  };
  const appDeps = (database: AppDatabase, appSecret: string, log: Logger): AppDeps =>
    composeDeps({
      db: database.db,
      sqlite: database.sqlite,
      env,
      logger: log,
      clock: systemClock,
      appSecret,
      clientDir,
    });
  const serverOptions = (runJobs: boolean): ServerOptions => ({
    port: env.PORT,
    hostname: env.HOST,
    runJobs,
    ...options,
  });

  if (env.WEB_CONCURRENCY === 1) {
    const { database, appSecret } = await prepareData();
    const server = startServer(appDeps(database, appSecret, logger), database, serverOptions(true));
    process.on('SIGTERM', () => server.shutdown('SIGTERM'));
    process.on('SIGINT', () => server.shutdown('SIGINT'));
    return;
  }
  await runServerProcesses({
    workers: env.WEB_CONCURRENCY,
    logger,
    // The primary opens the database (migrations, demo data) and settles the app secret before forking
    // workers that would otherwise race to generate it.
    prepare: async () => (await prepareData()).database.close(),
    startWorker: async ({ index, runsJobs }) => {
      const workerLogger = logger.child({ worker: index });
      const database = await openAppDatabase(env, { first: false, logger: workerLogger });
      const appSecret = await secretOf(database);
      return startServer(appDeps(database, appSecret, workerLogger), database, serverOptions(runsJobs));
    },
  });
}

interface ServerOptions extends RunOptions {
  port: number;
  hostname: string;
  /** Whether this process runs the background jobs (exactly one process does). */
  runJobs: boolean;
}

/** Serves the app (the one process, or one worker) and, if asked, runs the background jobs. */
function startServer(deps: AppDeps, database: AppDatabase, options: ServerOptions): StartedWorker {
  const jobs = options.runJobs ? startBackgroundJobs(deps, BACKGROUND_JOBS, database.leads) : undefined;
  const stopUpkeep = database.startUpkeep();
  // Requests start in the order they arrived, a short turn at a time (http/arrival-order.ts): in a rush
  // no buyer waits two rounds of the event loop behind buyers who came later.
  const appFetch = inArrivalOrder(createApp(deps).fetch);
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
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = IDLE_CONNECTION_MS;

  let stopping = false;
  return {
    shutdown(signal) {
      if (stopping) return;
      stopping = true;
      deps.logger.info({ signal }, 'shutting down');
      jobs?.stop();
      server.close(async () => {
        stopUpkeep();
        await database.close().catch((err) => deps.logger.error({ err }, 'closing the database failed'));
        process.exit(0);
      });
      // Connections kept alive by browsers would hold close() open; give in-flight requests 10 s.
      setTimeout(() => process.exit(0), 10_000).unref();
    },
    closeNow() {
      jobs?.stop();
      stopUpkeep();
      database.closeNow();
    },
  };
}
