import { decodeIdToken, Google, generateCodeVerifier, generateState } from 'arctic';
import { type Context, Hono } from 'hono';
import { NAME_MAX, safeRedirectPath } from '../../shared/auth-schemas.ts';
import { publicLinkBase } from '../../shared/public-links.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { DomainError } from '../errors.ts';
import { signInWithGoogle } from '../services/accounts/google.ts';
import { googleSignInEnabled } from '../services/accounts/google-oauth-config.ts';
import { secureCookies } from '../services/accounts/session-user.ts';
import {
  invalidateSession,
  readSessionToken,
  sessionCookie,
  sessionIdOf,
} from '../services/accounts/sessions.ts';
import { requestLogger } from './request-context.ts';

const STATE_COOKIE = 'google_oauth_state';
const VERIFIER_COOKIE = 'google_code_verifier';
const REDIRECT_COOKIE = 'google_oauth_redirect';
const COOKIE_PATH = '/api/auth/google';
/** The round trip through Google's consent screen must finish within ten minutes. */
const FLOW_MAX_AGE_S = 600;

/**
 * 'Continue with Google' (OAuth 2.0 authorization code flow with PKCE, through arctic):
 *   GET /api/auth/google?redirect=/path   sends the browser to Google's consent screen
 *   GET /api/auth/google/callback          Google sends it back; we exchange the code, read the ID token,
 *                                          sign in (linking by verified e-mail) and return to the app
 * Both answer 404 unless GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. Failures land on
 * /login?error=... where the sign-in page explains them.
 */
export function googleOAuthRoutes(deps: AppDeps) {
  const routes = new Hono<AppEnv>();

  routes.use('*', async (c, next) => {
    if (!googleSignInEnabled(deps.env)) return c.json({ error: { message: 'Not found' } }, 404);
    return next();
  });

  routes.get('/', (c) => {
    const secure = secureCookies(deps, new URL(c.req.url).origin);
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    const url = googleClient(deps, c).createAuthorizationURL(state, codeVerifier, [
      'openid',
      'profile',
      'email',
    ]);
    url.searchParams.set('prompt', 'select_account');
    const redirectTo = safeRedirectPath(c.req.query('redirect'));
    c.header('Set-Cookie', flowCookie(STATE_COOKIE, state, secure), { append: true });
    c.header('Set-Cookie', flowCookie(VERIFIER_COOKIE, codeVerifier, secure), { append: true });
    c.header('Set-Cookie', flowCookie(REDIRECT_COOKIE, encodeURIComponent(redirectTo), secure), {
      append: true,
    });
    c.header('Cache-Control', 'no-store');
    return c.redirect(url.toString(), 302);
  });

  routes.get('/callback', async (c) => {
    const secure = secureCookies(deps, new URL(c.req.url).origin);
    const cookies = parseCookies(c.req.header('cookie'));
    for (const name of [STATE_COOKIE, VERIFIER_COOKIE, REDIRECT_COOKIE]) {
      c.header('Set-Cookie', flowCookie(name, '', secure, 0), { append: true });
    }
    c.header('Cache-Control', 'no-store');
    const code = c.req.query('code');
    const state = c.req.query('state');
    const expectedState = cookies.get(STATE_COOKIE);
    const codeVerifier = cookies.get(VERIFIER_COOKIE);
    if (!code || !state || !expectedState || !codeVerifier || state !== expectedState) {
      return c.redirect(backToLogin('google', cookies), 302);
    }

    let claims: IdTokenClaims;
    try {
      const tokens = await googleClient(deps, c).validateAuthorizationCode(code, codeVerifier);
      claims = decodeIdToken(tokens.idToken()) as IdTokenClaims;
    } catch (err) {
      requestLogger(c).warn({ err }, 'Google sign-in: code exchange failed');
      return c.redirect(backToLogin('google', cookies), 302);
    }
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.email !== 'string' ||
      !audienceMatches(claims.aud, deps.env.GOOGLE_CLIENT_ID!)
    ) {
      return c.redirect(backToLogin('google', cookies), 302);
    }

    let session: Awaited<ReturnType<typeof signInWithGoogle>>;
    try {
      const previous = readSessionToken(c.req.header('cookie') ?? null);
      if (previous) await invalidateSession(deps.db, sessionIdOf(previous));
      session = await signInWithGoogle(deps, {
        sub: claims.sub,
        email: claims.email,
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        // Google's name is not bounded by our schema: keep it within the sign-up form's limit.
        name: typeof claims.name === 'string' ? claims.name.trim().slice(0, NAME_MAX) || null : null,
      });
    } catch (err) {
      if (err instanceof DomainError) {
        const reason = err.code === 'CONFLICT' ? 'google-linked' : 'google-unverified';
        return c.redirect(backToLogin(reason, cookies), 302);
      }
      throw err;
    }
    c.header('Set-Cookie', sessionCookie(session.token, session.expiresAt, secure), { append: true });
    const redirectTo = safeRedirectPath(decodeURIComponentSafe(cookies.get(REDIRECT_COOKIE)));
    return c.redirect(redirectTo, 302);
  });

  return routes;
}

/**
 * The sign-in page with the reason Google sign-in failed, still carrying the page that asked for it (a
 * buyer's checkout), so that another try or a password sign-in returns there.
 */
function backToLogin(reason: string, cookies: Map<string, string>): string {
  const redirectTo = safeRedirectPath(decodeURIComponentSafe(cookies.get(REDIRECT_COOKIE)));
  const back = redirectTo === '/' ? '' : `&redirect=${encodeURIComponent(redirectTo)}`;
  return `/login?error=${reason}${back}`;
}

interface IdTokenClaims {
  sub?: unknown;
  aud?: unknown;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

function googleClient(deps: AppDeps, c: Context<AppEnv>): Google {
  const origin = publicLinkBase(deps.env.PUBLIC_URL, c.req.url);
  return new Google(
    deps.env.GOOGLE_CLIENT_ID!,
    deps.env.GOOGLE_CLIENT_SECRET!,
    `${origin}${COOKIE_PATH}/callback`,
  );
}

function audienceMatches(aud: unknown, clientId: string): boolean {
  return aud === clientId || (Array.isArray(aud) && aud.includes(clientId));
}

function flowCookie(name: string, value: string, secure: boolean, maxAge = FLOW_MAX_AGE_S): string {
  const parts = [`${name}=${value}`, 'HttpOnly', 'SameSite=Lax', `Path=${COOKIE_PATH}`, `Max-Age=${maxAge}`];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

function decodeURIComponentSafe(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
