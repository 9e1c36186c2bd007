import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { databaseFile, openDatabase } from './db/client.ts';
import { seedDemoData } from './db/seed/seed.ts';
import { type AppDeps, systemClock } from './deps.ts';
import { loadEnv } from './env.ts';
import { startBackgroundJobs } from './jobs.ts';
import { createLogger } from './logger.ts';
import { paymentSetupProblem } from './services/payments/gateway-of.ts';

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const paymentProblem = paymentSetupProblem(env);
if (paymentProblem) {
  logger.fatal(paymentProblem);
  process.exit(1);
}
mkdirSync(env.DATA_DIR, { recursive: true });

const database = openDatabase(databaseFile(env.DATA_DIR));
if (env.SEED_DEMO_DATA) {
  const seeded = seedDemoData(database.db, systemClock);
  if (seeded > 0) logger.info({ events: seeded }, 'demo data added');
}

// CLIENT_DIR lets tests serve a build of their own; normally the client is built into dist/client.
const clientDir = path.resolve(process.env.CLIENT_DIR ?? path.join(import.meta.dirname, '../dist/client'));
const deps: AppDeps = {
  db: database.db,
  sqlite: database.sqlite,
  env,
  logger,
  clock: systemClock,
  appSecret: env.APP_SECRET ?? persistedSecret(env.DATA_DIR),
  clientDir: existsSync(path.join(clientDir, 'index.html')) ? clientDir : undefined,
};
if (!deps.clientDir) logger.warn('dist/client is missing: serving the API only (run `npm run build`)');

const jobs = startBackgroundJobs(deps);
const server = serve({ fetch: createApp(deps).fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  logger.info(`Jalsa is listening on http://localhost:${info.port}`);
});

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  jobs.stop();
  server.close(() => {
    database.close();
    process.exit(0);
  });
  // Connections kept alive by browsers would hold close() open; give in-flight requests 10 s.
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

/** A secret generated on first start and kept beside the database, so issued tickets stay valid across restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
