import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { accessLogger, type Logger } from '../logger.ts';
import { clientAddress } from './client-address.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const MAX_REQUEST_ID_LENGTH = 255;
const UNSAFE_REQUEST_ID = /[^\w\-=]/;

/**
 * Outermost middleware: gives each request its id (the caller's X-Request-Id when it is short and made
 * of safe characters, as a proxy in front may set one; otherwise a new UUID) and writes one access line
 * per request when it ends (with the client's address, through a trusted proxy, and its user agent). The logger bound to the id is made only when something logs
 * (`requestLogger`): most requests never log, and binding a redacting child costs ≈ 4 µs each.
 */
export function requestContext(logger: Logger, trustProxy = false): MiddlewareHandler<AppEnv> {
  const access = accessLogger(logger);
  return async (c, next) => {
    const requestId = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', requestId);
    c.set('baseLogger', logger);
    const started = performance.now();
    await next();
    access.info(
      {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
        ip: clientAddress(c, trustProxy),
        userAgent: c.req.header('user-agent'),
      },
      'request',
    );
  };
}

/** The caller's request id when it is short and made of safe characters, otherwise a new UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && incoming.length <= MAX_REQUEST_ID_LENGTH && !UNSAFE_REQUEST_ID.test(incoming)
    ? incoming
    : randomUUID();
}

/** The request's logger: every line carries its request id. */
export function requestLogger(c: Context<AppEnv>): Logger {
  let logger = c.get('logger');
  if (!logger) {
    logger = c.get('baseLogger').child({ requestId: c.get('requestId') });
    c.set('logger', logger);
  }
  return logger;
}

/**
 * Puts the request id on every response, so a user's report or a proxy log can be matched to the
 * server's lines. Set after the handler because handlers that return a ready-made Response (tRPC's
 * adapter, file downloads) would otherwise drop a header set beforehand.
 */
export function requestIdHeader(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, c.get('requestId'));
  };
}
