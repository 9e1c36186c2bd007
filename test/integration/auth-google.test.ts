import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';
import { sessionCookieFrom, signInVia, signUpVia } from './auth-helpers.ts';

const CLIENT_ID = 'jalsa-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'google-test-secret';
const TOKEN_URL = 'https://oauth2.googleapis.com/token';

interface Claims {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  aud?: string;
}

/** An ID token as Google's token endpoint returns it (the signature is not checked for a direct TLS answer). */
function idToken(claims: Claims): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: 'https://accounts.google.com', aud: CLIENT_ID, iat: 1, exp: 9_999_999_999, ...claims })}.c2lnbmF0dXJl`;
}

/** Google's token endpoint: checks the client, the code and the PKCE verifier, then answers with tokens. */
function googleTokenEndpoint(claims: Claims, seen: URLSearchParams[] = []) {
  return http.post(TOKEN_URL, async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    seen.push(form);
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const clientOk =
      request.headers.get('authorization') === basic ||
      (form.get('client_id') === CLIENT_ID && form.get('client_secret') === CLIENT_SECRET);
    if (!clientOk || form.get('code') !== 'good-code' || !form.get('code_verifier')) {
      return HttpResponse.json({ error: 'invalid_grant' }, { status: 400 });
    }
    return HttpResponse.json({
      access_token: 'ya29.test',
      token_type: 'Bearer',
      expires_in: 3599,
      scope: 'openid email profile',
      id_token: idToken(claims),
    });
  });
}

describe('Continue with Google', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    });
  });
  afterEach(async () => {
    await t.close();
  });

  /** Follows the browser through /api/auth/google and back with `code`, returning the final answer. */
  async function roundTrip(
    options: { redirect?: string; code?: string; tamperState?: boolean; cookie?: string } = {},
  ) {
    const start = await t.request(
      `/api/auth/google${options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : ''}`,
    );
    expect(start.status).toBe(302);
    const consent = new URL(start.headers.get('location')!);
    const flowCookies = start.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const state = options.tamperState ? 'forged-state' : consent.searchParams.get('state')!;
    const callback = await t.request(
      `/api/auth/google/callback?code=${options.code ?? 'good-code'}&state=${encodeURIComponent(state)}`,
      { headers: { cookie: [flowCookies, options.cookie].filter(Boolean).join('; ') } },
    );
    return { start, consent, callback, session: sessionCookieFrom(callback.headers.getSetCookie()) };
  }

  it('is offered only when both Google keys are set', async () => {
    expect((await callProcedure(t, 'query', 'auth.googleEnabled')).data).toBe(true);
    const plain = await createTestAppOn(testEngine());
    try {
      expect((await callProcedure(plain, 'query', 'auth.googleEnabled')).data).toBe(false);
      expect((await plain.request('/api/auth/google')).status).toBe(404);
      expect((await plain.request('/api/auth/google/callback?code=x&state=y')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('sends the browser to Google with PKCE, state and the callback address', async () => {
    const start = await t.request('/api/auth/google');
    const consent = new URL(start.headers.get('location')!);
    expect(consent.origin + consent.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(consent.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(consent.searchParams.get('redirect_uri')).toBe('http://localhost/api/auth/google/callback');
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('scope')).toBe('openid profile email');
    const cookies = start.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith('google_oauth_state=') && c.includes('HttpOnly'))).toBe(true);
    expect(cookies.some((c) => c.startsWith('google_code_verifier=') && c.includes('SameSite=Lax'))).toBe(
      true,
    );
  });

  it('creates a verified account for a new Google user and returns to the page that asked', async () => {
    const seen: URLSearchParams[] = [];
    mswServer.use(
      googleTokenEndpoint(
        { sub: 'g-100', email: 'Meera@Gmail.com', email_verified: true, name: 'Meera' },
        seen,
      ),
    );
    const { callback, session } = await roundTrip({ redirect: '/my-bookings' });
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/my-bookings');
    expect(seen[0]!.get('redirect_uri')).toBe('http://localhost/api/auth/google/callback');
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: session });
    expect(me.data).toMatchObject({
      email: 'meera@gmail.com',
      name: 'Meera',
      isEmailVerified: true,
      hasPassword: false,
      googleLinked: true,
    });
    // Signing in again finds the same account.
    const again = await roundTrip();
    const meAgain = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: again.session });
    expect((meAgain.data as { id: string }).id).toBe((me.data as { id: string }).id);
    const { users } = tablesOf(t.deps.db);
    expect(await t.deps.db.select().from(users)).toHaveLength(1);
  });

  it('links to an existing account with the same verified email, keeping its password', async () => {
    const person = await signUpVia(t, { email: 'asha@example.com' });
    const { users } = tablesOf(t.deps.db);
    await t.deps.db.update(users).set({ isEmailVerified: true }).where(eq(users.email, 'asha@example.com'));
    mswServer.use(googleTokenEndpoint({ sub: 'g-200', email: 'asha@example.com', email_verified: true }));
    const { session } = await roundTrip();
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: session });
    expect(me.data).toMatchObject({ id: person.account.id, googleLinked: true, hasPassword: true });
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie })).data,
    ).not.toBeNull();
    expect((await signInVia(t, person.email, person.password)).status).toBe(200);
  });

  it('takes over an unverified account with that email: its password and sessions go', async () => {
    const squatter = await signUpVia(t, { email: 'victim@example.com' });
    mswServer.use(googleTokenEndpoint({ sub: 'g-300', email: 'victim@example.com', email_verified: true }));
    const { session } = await roundTrip();
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: session });
    expect(me.data).toMatchObject({ id: squatter.account.id, isEmailVerified: true, hasPassword: false });
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: squatter.cookie })).data,
    ).toBeNull();
    expect((await signInVia(t, squatter.email, squatter.password)).status).toBe(401);
  });

  it('refuses a Google account whose email is not verified', async () => {
    await signUpVia(t, { email: 'asha@example.com' });
    mswServer.use(googleTokenEndpoint({ sub: 'g-400', email: 'asha@example.com', email_verified: false }));
    const { callback, session } = await roundTrip();
    expect(callback.headers.get('location')).toBe('/login?error=google-unverified');
    expect(session).toBeUndefined();
  });

  it('refuses a forged state and a code Google rejects', async () => {
    const seen: URLSearchParams[] = [];
    mswServer.use(googleTokenEndpoint({ sub: 'g-500', email: 'x@example.com', email_verified: true }, seen));
    const forged = await roundTrip({ tamperState: true });
    expect(forged.callback.headers.get('location')).toBe('/login?error=google');
    expect(forged.session).toBeUndefined();
    expect(seen).toHaveLength(0);

    const rejected = await roundTrip({ code: 'bad-code' });
    expect(rejected.callback.headers.get('location')).toBe('/login?error=google');
    expect(rejected.session).toBeUndefined();
  });

  it('keeps the page that asked (a checkout) when Google sign-in fails', async () => {
    await signUpVia(t, { email: 'ravi@example.com' });
    mswServer.use(googleTokenEndpoint({ sub: 'g-450', email: 'ravi@example.com', email_verified: false }));
    const checkout = '/checkout-tickets?eventId=e1&selectedTickets=[{"ticketTypeId":"t1","quantity":2}]';
    const unverified = await roundTrip({ redirect: checkout });
    const location = new URL(unverified.callback.headers.get('location')!, 'http://localhost');
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('error')).toBe('google-unverified');
    expect(location.searchParams.get('redirect')).toBe(checkout);

    const forged = await roundTrip({ redirect: checkout, tamperState: true });
    expect(
      new URL(forged.callback.headers.get('location')!, 'http://localhost').searchParams.get('redirect'),
    ).toBe(checkout);
  });

  it('refuses an ID token issued to another client', async () => {
    mswServer.use(
      googleTokenEndpoint({
        sub: 'g-600',
        email: 'y@example.com',
        email_verified: true,
        aud: 'someone-else',
      }),
    );
    const { callback, session } = await roundTrip();
    expect(callback.headers.get('location')).toBe('/login?error=google');
    expect(session).toBeUndefined();
  });

  it('never sends the browser off-site after sign-in', async () => {
    mswServer.use(googleTokenEndpoint({ sub: 'g-700', email: 'z@example.com', email_verified: true }));
    const { callback } = await roundTrip({ redirect: '//evil.example/steal' });
    expect(callback.headers.get('location')).toBe('/');
  });
});
