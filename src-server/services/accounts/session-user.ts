import type { AppDeps } from '../../deps.ts';
import type { RequestInfo } from '../../trpc/context.ts';

/** What every procedure may know about the signed-in person. Never includes secrets. */
export interface SessionUser {
  id: string;
  name: string | null;
  email: string;
  isStaff: boolean;
}

/**
 * Reads the session cookie and returns its user, sliding the expiry. Replaced by the accounts issue
 * with database-backed sessions; until then nobody is signed in.
 */
export async function resolveSessionUser(
  _deps: AppDeps,
  _request: Pick<RequestInfo, 'cookieHeader' | 'resHeaders'>,
): Promise<{ user: SessionUser; sessionId: string } | null> {
  return null;
}
