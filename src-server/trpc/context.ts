import type { FetchCreateContextFnOptions } from '@trpc/server/adapters/fetch';
import type { Context as HonoContext } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { clientAddress } from '../http/client-address.ts';
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
