import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { resolveSessionUser } from '../services/accounts/session-user.ts';
import type { SessionUser } from '../services/accounts/sessions.ts';

/**
 * The signed-in user of a plain HTTP route (files, uploads), or null: the tRPC context's session
 * lookup, renewed cookie included, so every route outside tRPC reads the session the same way.
 */
export async function sessionUserOf(c: Context<AppEnv>, deps: AppDeps): Promise<SessionUser | null> {
  const resHeaders = new Headers();
  const session = await resolveSessionUser(deps, {
    cookieHeader: c.req.header('cookie') ?? null,
    resHeaders,
    origin: new URL(c.req.url).origin,
  });
  for (const cookie of resHeaders.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
  return session?.user ?? null;
}
