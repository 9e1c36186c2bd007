import { runStatements } from '../../db/engine/reads.ts';
import type { AppDeps } from '../../deps.ts';
import { readSessionToken, type SessionUser, sessionCookie, validateSessionSteps } from './sessions.ts';

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
  request: SessionRequest,
): Promise<{ user: SessionUser; sessionId: string } | null> {
  const token = readSessionToken(request.cookieHeader);
  if (!token) return null;
  const now = deps.clock.now();
  const session = await runStatements(deps.db, (db) => validateSessionSteps(db, token, now));
  if (!session) return null;
  if (session.renewed) {
    request.resHeaders.append(
      'Set-Cookie',
      sessionCookie(token, session.expiresAt, secureCookies(deps, request.origin)),
    );
  }
  return { user: session.user, sessionId: session.sessionId };
}

/** The parts of a request that sessions read and write (the tRPC context and the ticket-file routes have them). */
export interface SessionRequest {
  cookieHeader: string | null;
  /** Where a renewed session's cookie is appended. */
  resHeaders: Headers;
  origin: string;
}
