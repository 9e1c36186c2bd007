import type { FetchCreateContextFnOptions } from '@trpc/server/adapters/fetch';
import type { Context as HonoContext } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { resolveSessionUser } from '../services/accounts/session-user.ts';
import type { SessionUser } from '../services/accounts/sessions.ts';

export type RequestInfo = {
  requestId: string;
  /** Client address, used for rate limits; never logged with personal data. */
  ip: string;
  /** Headers to add to the response: cookies are set here, because tRPC's response drops Hono's setCookie. */
  resHeaders: Headers;
  cookieHeader: string | null;
  /** The request's own origin: the base of e-mail links when PUBLIC_URL is unset (development, tests). */
  origin: string;
};

// A type alias, not an interface: tRPC's adapter wants a plain record.
export type Context = RequestInfo & {
  deps: AppDeps;
  db: AppDeps['db'];
  user: SessionUser | null;
  sessionId: string | null;
};

export async function createContext(
  deps: AppDeps,
  opts: FetchCreateContextFnOptions,
  c: HonoContext<AppEnv>,
): Promise<Context> {
  const info = requestInfo(c, opts.resHeaders, deps.env.TRUST_PROXY);
  const session = await resolveSessionUser(deps, info);
  return { ...info, deps, db: deps.db, user: session?.user ?? null, sessionId: session?.sessionId ?? null };
}

export function requestInfo(c: HonoContext<AppEnv>, resHeaders: Headers, trustProxy = false): RequestInfo {
  return {
    requestId: c.get('requestId'),
    ip: clientAddress(c, trustProxy),
    resHeaders,
    cookieHeader: c.req.header('cookie') ?? null,
    origin: new URL(c.req.url).origin,
  };
}

export function clientAddress(c: HonoContext<AppEnv>, trustProxy: boolean): string {
  // Behind a trusted reverse proxy (TRUST_PROXY, docs/operations.md) the proxy sets X-Forwarded-For to the
  // client's address. Without one, the header is whatever the client wrote, so it is ignored: otherwise
  // a client could dodge the sign-in rate limit per address by changing it.
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
