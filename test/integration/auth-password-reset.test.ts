import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import {
  linkInOutboxOn,
  sessionCookieFrom,
  signInVia,
  signUpVia,
  tokenOf,
  uniqueEmail,
} from './auth-helpers.ts';

const MINUTE = 60_000;
const SAME_ANSWER = "If an account exists for that address, we've sent a reset link";
const DEAD_LINK = 'This reset link is invalid or has expired. Please request a new one.';

describe('password reset', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  async function requestReset(email: string) {
    return callProcedure(t, 'mutation', 'auth.requestPasswordReset', { email });
  }

  async function reset(token: string, password: string) {
    return callProcedure(t, 'mutation', 'auth.resetPassword', { token, password, confirmPassword: password });
  }

  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const person = await signUpVia(t);
    const known = await requestReset(person.email.toUpperCase());
    const unknown = await requestReset(uniqueEmail('nobody'));
    expect(known.data).toEqual({ message: SAME_ANSWER });
    expect(unknown.data).toEqual({ message: SAME_ANSWER });
    const resetMails = (await t.deps.db.select().from(tablesOf(t.deps.db).outbox)).filter(
      (m) => m.subject === 'Reset your Jalsa password',
    );
    expect(resetMails.map((m) => m.to)).toEqual([person.email]);
    expect(resetMails[0]!.html).toContain('/reset-password?token=');
    expect(resetMails[0]!.text).toContain('/reset-password?token=');
  });

  it('stores only a hash of the token', async () => {
    const person = await signUpVia(t);
    await requestReset(person.email);
    const token = tokenOf(await linkInOutboxOn(t, person.email, '/reset-password'));
    const rows = await t.deps.db.select().from(tablesOf(t.deps.db).passwordResetTokens);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('sets the new password, ends every session, and works only once', async () => {
    const person = await signUpVia(t);
    const otherDevice = sessionCookieFrom((await signInVia(t, person.email, person.password)).setCookies)!;
    await requestReset(person.email);
    const token = tokenOf(await linkInOutboxOn(t, person.email, '/reset-password'));

    const done = await reset(token, 'brand-new-pass');
    expect(done.status).toBe(200);
    for (const cookie of [person.cookie, otherDevice]) {
      expect((await callProcedure(t, 'query', 'auth.me', undefined, { cookie })).data).toBeNull();
    }
    expect((await signInVia(t, person.email, person.password)).body.error?.message).toBe(
      'Invalid email or password',
    );
    expect((await signInVia(t, person.email, 'brand-new-pass')).status).toBe(200);

    const again = await reset(token, 'third-pass-999');
    expect(again.status).toBe(400);
    expect(again.body.error?.message).toBe(DEAD_LINK);
    expect((await signInVia(t, person.email, 'brand-new-pass')).status).toBe(200);
  });

  it('tells the reset page whether its link still works: fresh yes; used, expired or made up no', async () => {
    const status = async (token: string) =>
      (await callProcedure(t, 'query', 'auth.resetLinkStatus', { token })).data;
    const person = await signUpVia(t);
    await requestReset(person.email);
    const used = tokenOf(await linkInOutboxOn(t, person.email, '/reset-password'));
    expect(await status(used)).toEqual({ usable: true });
    expect((await reset(used, 'brand-new-pass')).status).toBe(200);
    expect(await status(used)).toEqual({ usable: false });

    t.clock.advance(20 * MINUTE);
    await requestReset(person.email);
    const expiring = tokenOf(await linkInOutboxOn(t, person.email, '/reset-password'));
    t.clock.advance(29 * MINUTE);
    expect(await status(expiring)).toEqual({ usable: true });
    t.clock.advance(MINUTE);
    expect(await status(expiring)).toEqual({ usable: false });
    expect(await status('not-a-real-token')).toEqual({ usable: false });
  });

  it('expires the link after 30 minutes', async () => {
    const person = await signUpVia(t);
    await requestReset(person.email);
    const token = tokenOf(await linkInOutboxOn(t, person.email, '/reset-password'));
    t.clock.advance(30 * MINUTE);
    const late = await reset(token, 'brand-new-pass');
    expect(late.status).toBe(400);
    expect(late.body.error?.message).toBe(DEAD_LINK);
    expect((await signInVia(t, person.email, person.password)).status).toBe(200);
  });

  it('still works at 29 minutes, and a used link kills the other links of the account', async () => {
    const person = await signUpVia(t);
    await requestReset(person.email);
    const first = tokenOf(await linkInOutboxOn(t, person.email, '/reset-password'));
    t.clock.advance(MINUTE);
    await requestReset(person.email);
    const second = tokenOf(await linkInOutboxOn(t, person.email, '/reset-password'));
    expect(second).not.toBe(first);
    t.clock.advance(28 * MINUTE);
    expect((await reset(second, 'brand-new-pass')).status).toBe(200);
    expect((await reset(first, 'other-pass-123')).body.error?.message).toBe(DEAD_LINK);
  });

  it('rejects a made-up token and applies the sign-up password rules', async () => {
    expect((await reset('not-a-real-token', 'brand-new-pass')).body.error?.message).toBe(DEAD_LINK);
    const short = await callProcedure(t, 'mutation', 'auth.resetPassword', {
      token: 'x',
      password: 'abc',
      confirmPassword: 'abc',
    });
    expect(short.body.error?.data.fieldErrors?.password).toBe('Password must be at least 6 characters');
    const mismatch = await callProcedure(t, 'mutation', 'auth.resetPassword', {
      token: 'x',
      password: 'abcdef',
      confirmPassword: 'abcdeg',
    });
    expect(mismatch.body.error?.data.fieldErrors?.confirmPassword).toBe('Passwords do not match');
  });

  it('sends at most 3 reset mails per account per 15 minutes, answering the same', async () => {
    const person = await signUpVia(t);
    for (let i = 0; i < 5; i++)
      expect((await requestReset(person.email)).data).toEqual({ message: SAME_ANSWER });
    const count = async () => (await t.deps.db.select().from(tablesOf(t.deps.db).passwordResetTokens)).length;
    expect(await count()).toBe(3);
    t.clock.advance(15 * MINUTE + 1);
    await requestReset(person.email);
    expect(await count()).toBe(4);
  });

  it('lifts the sign-in block for the account once the password is reset', async () => {
    const person = await signUpVia(t);
    for (let i = 0; i < 5; i++) await signInVia(t, person.email, `wrong-${i}`);
    expect((await signInVia(t, person.email, person.password)).status).toBe(429);
    await requestReset(person.email);
    await reset(tokenOf(await linkInOutboxOn(t, person.email, '/reset-password')), 'brand-new-pass');
    expect((await signInVia(t, person.email, 'brand-new-pass')).status).toBe(200);
  });
});

describe('password change', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('checks the current password, ends other sessions and gives this browser a fresh one', async () => {
    const person = await signUpVia(t);
    const otherDevice = sessionCookieFrom((await signInVia(t, person.email, person.password)).setCookies)!;

    const wrong = await callProcedure(
      t,
      'mutation',
      'auth.changePassword',
      { currentPassword: 'not-it', password: 'brand-new-pass', confirmPassword: 'brand-new-pass' },
      { cookie: person.cookie },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.data.fieldErrors).toEqual({ currentPassword: 'Incorrect password' });

    const changed = await callProcedure(
      t,
      'mutation',
      'auth.changePassword',
      { currentPassword: person.password, password: 'brand-new-pass', confirmPassword: 'brand-new-pass' },
      { cookie: person.cookie },
    );
    expect(changed.status).toBe(200);
    const fresh = sessionCookieFrom(changed.setCookies)!;
    expect(fresh).not.toBe(person.cookie);
    expect((await callProcedure(t, 'query', 'auth.me', undefined, { cookie: otherDevice })).data).toBeNull();
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie })).data,
    ).toBeNull();
    expect((await callProcedure(t, 'query', 'auth.me', undefined, { cookie: fresh })).data).not.toBeNull();
    expect((await signInVia(t, person.email, 'brand-new-pass')).status).toBe(200);
  });
});

describe('e-mail verification', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('the link mailed at sign-up marks the address verified, and opening it twice is harmless', async () => {
    const person = await signUpVia(t);
    const token = tokenOf(await linkInOutboxOn(t, person.email, '/verify-email'));
    expect((await callProcedure(t, 'mutation', 'auth.verifyEmail', { token })).status).toBe(200);
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie });
    expect((me.data as { isEmailVerified: boolean }).isEmailVerified).toBe(true);
    expect((await callProcedure(t, 'mutation', 'auth.verifyEmail', { token })).status).toBe(200);
  });

  it('refuses an unknown or expired link', async () => {
    const person = await signUpVia(t);
    const token = tokenOf(await linkInOutboxOn(t, person.email, '/verify-email'));
    const bogus = await callProcedure(t, 'mutation', 'auth.verifyEmail', { token: 'bogus' });
    expect(bogus.body.error?.message).toBe('This verification link is invalid or has expired.');
    t.clock.advance(48 * 60 * MINUTE);
    const late = await callProcedure(t, 'mutation', 'auth.verifyEmail', { token });
    expect(late.body.error?.message).toBe('This verification link is invalid or has expired.');
    const { users } = tablesOf(t.deps.db);
    const [row] = await t.deps.db.select().from(users).where(eq(users.email, person.email));
    expect(row?.isEmailVerified).toBe(false);
  });

  it('sends a new verification mail on request, to unverified accounts only', async () => {
    const person = await signUpVia(t);
    const { outbox } = tablesOf(t.deps.db);
    const mails = async () =>
      (await t.deps.db.select().from(outbox).where(eq(outbox.to, person.email))).length;
    await callProcedure(t, 'mutation', 'auth.resendVerification', undefined, { cookie: person.cookie });
    expect(await mails()).toBe(2);
    const token = tokenOf(await linkInOutboxOn(t, person.email, '/verify-email'));
    await callProcedure(t, 'mutation', 'auth.verifyEmail', { token });
    await callProcedure(t, 'mutation', 'auth.resendVerification', undefined, { cookie: person.cookie });
    expect(await mails()).toBe(2);
  });
});
