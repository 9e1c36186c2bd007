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

// A type alias, not an interface: tRPC's adapter wants a plain record. Kept to five fields, the
// request's own in `request`: tRPC copies the whole context at every middleware layer of every call
// (issue 21; docs/benchmarks.md).
export type Context = {
  request: RequestInfo;
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
  return {
    request: info,
    deps,
    db: deps.db,
    user: session?.user ?? null,
    sessionId: session?.sessionId ?? null,
  };
}

export function requestInfo(c: HonoContext<AppEnv>, resHeaders: Headers, trustProxy = false): RequestInfo {
  return new LazyRequestInfo(c, resHeaders, trustProxy);
}

/**
 * The client address and the request's origin are worked out when first read: few procedures need
 * either (rate limits, links in mails, cookies), and parsing the URL and the forwarding headers on every
 * call cost a few µs each (issue 21).
 */
class LazyRequestInfo implements RequestInfo {
  readonly requestId: string;
  readonly resHeaders: Headers;
  readonly cookieHeader: string | null;
  readonly #c: HonoContext<AppEnv>;
  readonly #trustProxy: boolean;
  #ip: string | undefined;
  #origin: string | undefined;

  constructor(c: HonoContext<AppEnv>, resHeaders: Headers, trustProxy: boolean) {
    this.#c = c;
    this.#trustProxy = trustProxy;
    this.requestId = c.get('requestId');
    this.resHeaders = resHeaders;
    this.cookieHeader = c.req.header('cookie') ?? null;
  }

  get ip(): string {
    this.#ip ??= clientAddress(this.#c, this.#trustProxy);
    return this.#ip;
  }

  get origin(): string {
    this.#origin ??= new URL(this.#c.req.url).origin;
    return this.#origin;
  }
}
