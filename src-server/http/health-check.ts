import type Database from 'better-sqlite3';
import { Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { PgDb } from '../db/engine/postgres.ts';
import { isPostgres } from '../db/engine/reads.ts';
import type { AppDeps } from '../deps.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './request-context.ts';

/** What the health check answers when the database is reachable. */
export const HEALTHY = { status: 'ok' } as const;
const HEALTHY_BODY = JSON.stringify(HEALTHY);

/**
 * `GET /healthz` answered ahead of the middleware stack (issue 21): a load balancer asks it every few
 * seconds per instance, and through the whole stack it cost 3–4 bare routes (docs/benchmarks.md). It
 * still checks the database (`select 1`, compiled once) and carries exactly the headers the stack would
 * add: the security headers and the JSON content type, taken once from `securityHeaders` itself on a
 * one-route app, so the two can never drift; the request id (the caller's when well formed); its length,
 * so nothing is compressed. It writes no access line: a probe's line every few seconds is noise.
 *
 * Anything but a healthy GET goes on through the stack to the ordinary `/healthz` route, so a failing
 * database answers and is logged exactly as any other error.
 */
export function healthCheckFastPath(
  ping: DatabasePing,
  securityHeaders: MiddlewareHandler,
): MiddlewareHandler<AppEnv> {
  let headers: Record<string, string> | undefined;
  const headersReady = headersOf(securityHeaders).then((taken) => {
    headers = taken;
  });
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    if (!headers) await headersReady;
    try {
      const answered = ping();
      if (answered) await answered;
    } catch {
      return next();
    }
    return new Response(HEALTHY_BODY, {
      status: 200,
      headers: { ...headers, [REQUEST_ID_HEADER]: requestIdOf(c.req.header(REQUEST_ID_HEADER)) },
    });
  };
}

/** Asks the database whether it answers: throws (or rejects) when it does not. */
export type DatabasePing = () => undefined | Promise<unknown>;

/**
 * The ping of whichever engine the composition root opened: `select 1` on the PostgreSQL pool (a
 * round trip to the server), or SQLite's `select 1`, compiled on first use and run at once on the
 * thread, without a promise, as the fast path always did.
 */
export function databasePing(deps: Pick<AppDeps, 'db' | 'sqlite'>): DatabasePing {
  if (isPostgres(deps.db)) {
    const pool = (deps.db as unknown as PgDb).$client;
    return () => pool.query('select 1');
  }
  let statement: Database.Statement | undefined;
  return () => {
    statement ??= deps.sqlite.prepare('select 1');
    statement.get();
    return undefined;
  };
}

/** The headers of the health answer as the stack sends it, minus those that differ per request. */
async function headersOf(securityHeaders: MiddlewareHandler): Promise<Record<string, string>> {
  const probe = new Hono();
  probe.use(securityHeaders);
  probe.get('/', (c) => c.json(HEALTHY));
  const res = await probe.request('/');
  const taken: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    taken[name] = value;
  });
  taken['content-length'] = String(Buffer.byteLength(HEALTHY_BODY));
  return taken;
}
