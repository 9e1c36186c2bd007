import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type DatabaseHandle, databaseFile, openDatabase } from './db/client.ts';
import { seedDemoData } from './db/seed/seed.ts';
import { type AppDeps, systemClock } from './deps.ts';
import { loadEnv } from './env.ts';
import { createLogger } from './logger.ts';
import { runServerProcesses } from './process/cluster.ts';
import { startServer } from './server.ts';
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
  const server = startServer(appDeps(prepareData(), logger), serverOptions(true));
  process.on('SIGTERM', () => server.shutdown('SIGTERM'));
  process.on('SIGINT', () => server.shutdown('SIGINT'));
} else {
  // Several workers on one port and one database file; only worker 0 runs the jobs (ADR 0009).
  await runServerProcesses({
    workers: env.WEB_CONCURRENCY,
    logger,
    prepare: () => prepareData().close(),
    startWorker: ({ index, runsJobs }) =>
      startServer(
        appDeps(openDatabase(databaseFile(env.DATA_DIR)), logger.child({ worker: index })),
        serverOptions(runsJobs),
      ),
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

function serverOptions(runJobs: boolean) {
  return { port: env.PORT, hostname: env.HOST, runJobs };
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

/** A secret generated on first start and kept beside the database, so issued tickets stay valid across restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
