import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '../../src-server/app.ts';
import { databaseFile, openDatabase } from '../../src-server/db/client.ts';
import { seedDemoData } from '../../src-server/db/seed/seed.ts';
import { type AppDeps, systemClock } from '../../src-server/deps.ts';
import { loadEnv } from '../../src-server/env.ts';
import { startBackgroundJobs } from '../../src-server/jobs.ts';
import { createLogger } from '../../src-server/logger.ts';

/**
 * The process under test: the real app exactly as production builds it (same database settings, same
 * middleware, background jobs running), plus one bare Hono JSON route beside it, `/__bench/bare`, that
 * the benchmarks use as the baseline measured in the same process and the same run.
 */
const env = loadEnv({ ...process.env, LOG_LEVEL: 'silent' });
mkdirSync(env.DATA_DIR, { recursive: true });
const database = openDatabase(databaseFile(env.DATA_DIR));
seedDemoData(database.db, systemClock);

const deps: AppDeps = {
  db: database.db,
  sqlite: database.sqlite,
  env,
  logger: createLogger('silent'),
  clock: systemClock,
  appSecret: 'bench-secret-0123456789abcdef0123456789abcdef',
  clientDir: process.env.CLIENT_DIR ? path.resolve(process.env.CLIENT_DIR) : undefined,
};
const app = createApp(deps);
startBackgroundJobs(deps);

const BARE_PAYLOAD = { status: 'ok', service: 'jalsa', message: 'bare hono baseline' };
const root = new Hono();
root.get('/__bench/bare', (c) => c.json(BARE_PAYLOAD));
root.all('*', (c) => app.fetch(c.req.raw, c.env));

serve({ fetch: root.fetch, port: env.PORT, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening ${info.port}\n`);
});
process.on('SIGTERM', () => {
  database.close();
  process.exit(0);
});
