import { eq } from 'drizzle-orm';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let counter = 0;

export function uniqueEmail(prefix = 'person'): string {
  counter += 1;
  return `${prefix}${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

export function signUpInput(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Asha Verma',
    email: uniqueEmail(),
    mobile: '9876543210',
    password: 'secret-pass',
    confirmPassword: 'secret-pass',
    acceptTerms: true,
    ...overrides,
  };
}

/** The `name=value` part of the session Set-Cookie in a response, usable as a Cookie header. */
export function sessionCookieFrom(setCookies: string[]): string | undefined {
  const header = setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return header?.split(';')[0];
}

/** Signs up through the real procedure and returns the session cookie. */
export async function signUpVia(t: TestApp, overrides: Record<string, unknown> = {}) {
  const input = signUpInput(overrides);
  const res = await callProcedure(t, 'mutation', 'auth.signUp', input);
  if (res.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(res.body)}`);
  const cookie = sessionCookieFrom(res.setCookies);
  if (!cookie) throw new Error('sign-up set no session cookie');
  return { ...input, cookie, account: res.data as { id: string; email: string } };
}

export async function signInVia(
  t: TestApp,
  email: string,
  password: string,
  options: { cookie?: string; ip?: string } = {},
) {
  return callProcedure(
    t,
    'mutation',
    'auth.signIn',
    { email, password },
    { cookie: options.cookie, headers: options.ip ? { 'x-forwarded-for': options.ip } : {} },
  );
}

/** The link (with its token) in the newest queued mail to `to` whose link path matches. */
export function linkInOutbox(t: TestApp, to: string, pathname: string): string {
  const mails = t.deps.db.select().from(outbox).where(eq(outbox.to, to)).all();
  for (const mail of mails.reverse()) {
    const match = new RegExp(`https?://[^\\s"<]+${pathname}\\?token=[A-Za-z0-9%]+`).exec(mail.text);
    if (match) return match[0];
  }
  throw new Error(`no ${pathname} link mailed to ${to}`);
}

/** `linkInOutbox` on either engine (the outbox read through the engine's own table, awaited). */
export async function linkInOutboxOn(t: TestApp, to: string, pathname: string): Promise<string> {
  const { outbox: mail } = tablesOf(t.deps.db);
  // In the order they were queued, as SQLite's rowid order gives them (PostgreSQL keeps none without ORDER BY).
  const mails = await t.deps.db.select().from(mail).where(eq(mail.to, to)).orderBy(mail.id);
  for (const one of mails.reverse()) {
    const match = new RegExp(`https?://[^\\s"<]+${pathname}\\?token=[A-Za-z0-9%]+`).exec(one.text);
    if (match) return match[0];
  }
  throw new Error(`no ${pathname} link mailed to ${to}`);
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
}
