import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { type DatabaseHandle, databaseFile, openDatabase } from './db/client.ts';
import { seedDemoData } from './db/seed/seed.ts';
import { type AppDeps, systemClock } from './deps.ts';
import { loadEnv } from './env.ts';
import { startBackgroundJobs } from './jobs.ts';
import { createLogger } from './logger.ts';
import { runServerProcesses, type StartedWorker } from './process/cluster.ts';
import { paymentSetupProblem } from './services/payments/gateway-of.ts';

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const paymentProblem = paymentSetupProblem(env);
if (paymentProblem) {
  logger.fatal(paymentProblem);
  process.exit(1);
}

// CLIENT_DIR lets tests serve a build of their own; normally the client is built into dist/client.
const clientDirCandidate = path.resolve(
  process.env.CLIENT_DIR ?? path.join(import.meta.dirname, '../dist/client'),
);
const clientDir = existsSync(path.join(clientDirCandidate, 'index.html')) ? clientDirCandidate : undefined;

if (env.WEB_CONCURRENCY === 1) {
  // One process serves everything and runs the background jobs (the default).
  const server = startServer(appDeps(prepareData(), logger), { runJobs: true });
  process.on('SIGTERM', () => server.shutdown('SIGTERM'));
  process.on('SIGINT', () => server.shutdown('SIGINT'));
} else {
  // Several workers on one port and one database file; only worker 0 runs the jobs (ADR 0009).
  await runServerProcesses({
    workers: env.WEB_CONCURRENCY,
    logger,
    prepare: () => prepareData().close(),
    startWorker: ({ index, runsJobs }) =>
      startServer(appDeps(openDatabase(databaseFile(env.DATA_DIR)), logger.child({ worker: index })), {
        runJobs: runsJobs,
      }),
  });
}

/**
 * Everything that happens once per data folder: create it, open the database (applying migrations), add
 * demo data to an empty database, generate the app secret if none is configured.
 */
function prepareData(): DatabaseHandle {
  mkdirSync(env.DATA_DIR, { recursive: true });
  const database = openDatabase(databaseFile(env.DATA_DIR));
  if (env.SEED_DEMO_DATA) {
    const seeded = seedDemoData(database.db, systemClock);
    if (seeded > 0) logger.info({ events: seeded }, 'demo data added');
  }
  if (!env.APP_SECRET) persistedSecret(env.DATA_DIR);
  if (!clientDir) logger.warn('dist/client is missing: serving the API only (run `npm run build`)');
  return database;
}

function appDeps(database: DatabaseHandle, log: typeof logger): AppDeps {
  return {
    db: database.db,
    sqlite: database.sqlite,
    env,
    logger: log,
    clock: systemClock,
    appSecret: env.APP_SECRET ?? persistedSecret(env.DATA_DIR),
    clientDir,
  };
}

/** Serves the app on PORT (shared by every worker under WEB_CONCURRENCY) and, if asked, runs the jobs. */
function startServer(deps: AppDeps, { runJobs }: { runJobs: boolean }): StartedWorker {
  const jobs = runJobs ? startBackgroundJobs(deps) : undefined;
  const server = serve({ fetch: createApp(deps).fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    deps.logger.info(`Jalsa is listening on http://localhost:${info.port}`);
  });

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

/** A secret generated on first start and kept beside the database, so issued tickets stay valid across restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
