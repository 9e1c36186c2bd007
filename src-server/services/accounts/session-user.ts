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

/** Cookies are Secure except on plain-HTTP localhost development and tests. */
export function secureCookies(deps: Pick<AppDeps, 'env'>): boolean {
  return deps.env.NODE_ENV === 'production';
}

/**
 * Reads the session cookie and returns its user, sliding the expiry (and re-sending the cookie) when
 * the session is renewed. A missing, unknown or expired token means nobody is signed in.
 */
export async function resolveSessionUser(
  deps: AppDeps,
  request: Pick<RequestInfo, 'cookieHeader' | 'resHeaders'>,
): Promise<{ user: SessionUser; sessionId: string } | null> {
  const token = readSessionToken(request.cookieHeader);
  if (!token) return null;
  const session = validateSessionToken(deps.db, token, deps.clock.now());
  if (!session) return null;
  if (session.renewed) {
    request.resHeaders.append('Set-Cookie', sessionCookie(token, session.expiresAt, secureCookies(deps)));
  }
  return { user: session.user, sessionId: session.sessionId };
}
