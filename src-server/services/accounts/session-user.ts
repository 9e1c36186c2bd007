import type { AppDeps } from '../../deps.ts';
import type { RequestInfo } from '../../trpc/context.ts';
import { readSessionToken, sessionCookie, validateSessionToken } from './sessions.ts';

/** What every procedure may know about the signed-in person. Never includes secrets. */
export interface SessionUser {
  id: string;
  name: string | null;
  email: string;
  isStaff: boolean;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Cookies are Secure everywhere except plain-HTTP localhost (development, tests): always in production,
 * and on any other host or over HTTPS whatever NODE_ENV says, so a development build reached over the
 * network still never sends its session cookie in the clear.
 */
export function secureCookies(deps: Pick<AppDeps, 'env'>, requestOrigin: string): boolean {
  if (deps.env.NODE_ENV === 'production') return true;
  const { protocol, hostname } = new URL(requestOrigin);
  return protocol === 'https:' || !LOCAL_HOSTS.has(hostname);
}

/**
 * Reads the session cookie and returns its user, sliding the expiry (and re-sending the cookie) when
 * the session is renewed. A missing, unknown or expired token means nobody is signed in.
 */
export async function resolveSessionUser(
  deps: AppDeps,
  request: Pick<RequestInfo, 'cookieHeader' | 'resHeaders' | 'origin'>,
): Promise<{ user: SessionUser; sessionId: string } | null> {
  const token = readSessionToken(request.cookieHeader);
  if (!token) return null;
  const session = validateSessionToken(deps.db, token, deps.clock.now());
  if (!session) return null;
  if (session.renewed) {
    request.resHeaders.append(
      'Set-Cookie',
      sessionCookie(token, session.expiresAt, secureCookies(deps, request.origin)),
    );
  }
  return { user: session.user, sessionId: session.sessionId };
}
