import cluster from 'node:cluster';
import { Hono } from 'hono';
import { loadEnv } from '../../src-server/env.ts';
import { createLogger } from '../../src-server/logger.ts';
import { runServer } from '../../src-server/server.ts';
import { BROWSER_ACCEPT_ENCODING } from './http.ts';

/**
 * The process under test: the real app started exactly as `npm start` starts it (`runServer`: same
 * database settings, middleware, request logging at production's level to stdout, background jobs, and
 * WEB_CONCURRENCY workers when set), plus bare Hono routes in front of it that the benchmarks use as
 * baselines measured in the same process and the same run:
 * - `/__bench/bare`: a small JSON answer (the "bare Hono JSON endpoint");
 * - `/__bench/bare-headers`: /healthz's body and headers with no app work: the least /healthz could cost.
 * - `/__bench/bare-catalogue`: the bytes and headers of the app's own `events.list` answer, sent as a
 *   ready-made answer with no app work, i.e. the most any catalogue read could reach on this machine.
 * - `/__bench/bare-gc`: a full garbage collection, then the process's RSS in bytes (what it keeps, not how
 *   far V8 happened to have grown its heap; the server runs with --expose-gc).
 * It tells bench/lib/server.ts it is ready (an IPC message) once every serving process listens.
 */
const BARE_PREFIX = '/__bench/bare';
const BARE_PAYLOAD = { status: 'ok', service: 'jalsa', message: 'bare hono baseline' };
/** /healthz's body, sent by the bare route that carries its headers. */
const BARE_HEALTHY_BODY = JSON.stringify({ status: 'ok' });

const env = loadEnv(process.env);
if (env.WEB_CONCURRENCY > 1 && cluster.isPrimary) reportWhenAllListen(env.WEB_CONCURRENCY);
await runServer(env, createLogger(env.LOG_LEVEL), {
  // One string test picks the baselines (their URLs have no query string): the baselines and the app
  // each get exactly one Hono dispatch, as the app does in production.
  wrapFetch: (appFetch) => {
    const bare = bareRoutes(appFetch);
    return (request, bindings) =>
      request.url.includes(BARE_PREFIX) ? bare.fetch(request, bindings) : appFetch(request, bindings);
  },
  // In a worker this reaches the primary (reportWhenAllListen); in a single process, the bench itself.
  onListening: (port) => process.send?.({ listening: port }),
});

function bareRoutes(appFetch: (request: Request) => Response | Promise<Response>) {
  // The catalogue answer a browser gets, taken from the app itself on first use.
  let catalogue: { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } | undefined;
  const takeCatalogue = async () => {
    const list = await appFetch(
      new Request('http://127.0.0.1/trpc/events.list', {
        headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      }),
    );
    return { body: new Uint8Array(await list.arrayBuffer()), headers: Object.fromEntries(list.headers) };
  };

  const bare = new Hono();
  bare.get(BARE_PREFIX, (c) => c.json(BARE_PAYLOAD));
  bare.get(`${BARE_PREFIX}-gc`, (c) => {
    (globalThis as { gc?: () => void }).gc?.();
    return c.json({ rssBytes: process.memoryUsage().rss });
  });
  // /healthz's headers (the security headers, content type and length), taken from the app on first use.
  let healthHeaders: Record<string, string> | undefined;
  bare.get(`${BARE_PREFIX}-headers`, async () => {
    healthHeaders ??= Object.fromEntries(
      (await appFetch(new Request('http://127.0.0.1/healthz'))).headers,
    ) as Record<string, string>;
    return new Response(BARE_HEALTHY_BODY, {
      headers: { ...healthHeaders, 'x-request-id': crypto.randomUUID() },
    });
  });
  bare.get(`${BARE_PREFIX}-catalogue`, async () => {
    catalogue ??= await takeCatalogue();
    return new Response(catalogue.body, {
      headers: { ...catalogue.headers, 'x-request-id': crypto.randomUUID() },
    });
  });
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
