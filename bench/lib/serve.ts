import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { createApp } from '../../src-server/app.ts';
import { databaseFile, openDatabase } from '../../src-server/db/client.ts';
import { seedDemoData } from '../../src-server/db/seed/seed.ts';
import { type AppDeps, systemClock } from '../../src-server/deps.ts';
import { loadEnv } from '../../src-server/env.ts';
import { createLogger } from '../../src-server/logger.ts';
import { runServerProcesses, type StartedWorker } from '../../src-server/process/cluster.ts';
import { startServer } from '../../src-server/server.ts';
import { BROWSER_ACCEPT_ENCODING } from './http.ts';

/**
 * The process under test: the real app exactly as production builds it (same database settings, same
 * middleware, request logging at production's level to stdout, background jobs running), plus bare Hono
 * routes beside it that the benchmarks use as baselines measured in the same process and the same run:
 * - `/__bench/bare`: a small JSON answer (the "bare Hono JSON endpoint");
 * - `/__bench/bare-catalogue`: the bytes and headers of the app's own `events.list` answer, sent as a
 *   ready-made answer with no app work, i.e. the most any catalogue read could reach on this machine.
 * With WEB_CONCURRENCY > 1 it runs as production does then: several workers on one port and one
 * database file (src-server/process/cluster.ts), the baselines served by every worker.
 */
const BARE_PREFIX = '/__bench/bare';
const BARE_PAYLOAD = { status: 'ok', service: 'jalsa', message: 'bare hono baseline' };

const env = loadEnv(process.env);
const logger = createLogger(env.LOG_LEVEL);

if (env.WEB_CONCURRENCY === 1) {
  const worker = await startWorker(openPreparedDatabase(), true);
  process.on('SIGTERM', () => worker.shutdown('SIGTERM'));
  process.send?.({ listening: env.PORT });
} else {
  if (cluster.isPrimary) reportWhenAllListen(env.WEB_CONCURRENCY);
  await runServerProcesses({
    workers: env.WEB_CONCURRENCY,
    logger,
    prepare: () => openPreparedDatabase().close(),
    startWorker: async ({ runsJobs }) => {
      const worker = await startWorker(openDatabase(databaseFile(env.DATA_DIR)), runsJobs);
      process.send?.({ listening: env.PORT });
      return worker;
    },
  });
}

function openPreparedDatabase() {
  mkdirSync(env.DATA_DIR, { recursive: true });
  const database = openDatabase(databaseFile(env.DATA_DIR));
  seedDemoData(database.db, systemClock);
  return database;
}

async function startWorker(
  database: ReturnType<typeof openDatabase>,
  runJobs: boolean,
): Promise<StartedWorker> {
  const deps: AppDeps = {
    db: database.db,
    sqlite: database.sqlite,
    env,
    logger,
    clock: systemClock,
    appSecret: 'bench-secret-0123456789abcdef0123456789abcdef',
    clientDir: process.env.CLIENT_DIR ? path.resolve(process.env.CLIENT_DIR) : undefined,
  };
  const bare = await bareRoutes(createApp(deps));
  return new Promise((resolve) => {
    const worker = startServer(deps, {
      port: env.PORT,
      hostname: '127.0.0.1',
      runJobs,
      // One string test picks the baselines (their URLs have no query string): the baselines and the
      // app each get exactly one Hono dispatch, as the app does in production.
      wrapFetch: (appFetch) => (request, bindings) =>
        request.url.includes(BARE_PREFIX) ? bare.fetch(request, bindings) : appFetch(request, bindings),
      onListening: () => resolve(worker),
    });
  });
}

async function bareRoutes(app: ReturnType<typeof createApp>) {
  // The catalogue answer a browser gets, taken once from the app itself.
  const list = await app.request('http://127.0.0.1/trpc/events.list', {
    headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
  });
  const catalogueBody = new Uint8Array(await list.arrayBuffer());
  const catalogueHeaders = Object.fromEntries(list.headers);

  const bare = new Hono();
  bare.get(BARE_PREFIX, (c) => c.json(BARE_PAYLOAD));
  bare.get(
    `${BARE_PREFIX}-catalogue`,
    () =>
      new Response(catalogueBody, { headers: { ...catalogueHeaders, 'x-request-id': crypto.randomUUID() } }),
  );
  return bare;
}

/** Tells bench/lib/server.ts the server is up once every worker listens. */
function reportWhenAllListen(workers: number) {
  let listening = 0;
  cluster.on('message', (_worker, message: { listening?: number }) => {
    if (message.listening === undefined) return;
    listening += 1;
    if (listening === workers) process.send?.({ listening: message.listening });
  });
}
