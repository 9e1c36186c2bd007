import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { pruneExpiredAccountRows } from '../../src-server/services/accounts/cleanup.ts';
import {
  ACCOUNT_MAILS_PER_CLIENT,
  SIGN_UPS_PER_CLIENT,
  SIGN_UPS_PER_EMAIL,
} from '../../src-server/services/accounts/request-limits.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { linkInOutboxOn, signUpInput, signUpVia, tokenOf, uniqueEmail } from './auth-helpers.ts';

/**
 * Replays of issue 18, item 4: anyone could sign up with a stranger's address and have Jalsa mail the
 * stranger 'Hi <any text>', as often as they liked. Now mail to an unproved address carries no text
 * the requester chose, and sign-ups, verification resends and reset requests are limited per e-mail
 * and per client address.
 */
const MINUTE = 60_000;
const BAIT = 'Claim your refund at evil.example';
const TOO_MANY_SIGN_UPS = 'Too many sign-up attempts. Please try again later';
const TOO_MANY_MAILS = 'Too many emails requested. Please try again later';

describe('mail to an address nobody has proved', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('the verification mail carries no text the person signing up chose', async () => {
    const stranger = uniqueEmail('stranger');
    const res = await callProcedure(
      t,
      'mutation',
      'auth.signUp',
      signUpInput({ name: BAIT, email: stranger }),
    );
    expect(res.status).toBe(200);
    const [mail] = await mailsTo(t, stranger);
    expect(mail!.subject).toBe('Verify your email address for Jalsa');
    expect(mail!.text).toContain('Hi there,');
    for (const body of [mail!.subject, mail!.html, mail!.text]) {
      expect(body).not.toContain('evil.example');
      expect(body).not.toContain('Claim your refund');
    }
  });

  it('a reset mail greets by name only once the address is verified', async () => {
    const person = await signUpVia(t, { name: BAIT });
    await callProcedure(t, 'mutation', 'auth.requestPasswordReset', { email: person.email });
    const unverified = (await mailsTo(t, person.email)).at(-1)!;
    expect(unverified.subject).toBe('Reset your Jalsa password');
    expect(unverified.text).not.toContain('evil.example');
    expect(unverified.html).not.toContain('evil.example');

    const token = tokenOf(await linkInOutboxOn(t, person.email, '/verify-email'));
    expect((await callProcedure(t, 'mutation', 'auth.verifyEmail', { token })).status).toBe(200);
    t.clock.advance(MINUTE);
    await callProcedure(t, 'mutation', 'auth.requestPasswordReset', { email: person.email });
    expect((await mailsTo(t, person.email)).at(-1)!.text).toContain(`Hi ${BAIT},`);
  });
});

describe('sign-up limits', () => {
  let t: TestApp;
  beforeEach(async () => {
    // Client addresses come from X-Forwarded-For, which the app believes only behind a trusted proxy.
    t = await createTestAppOn(testEngine(), { TRUST_PROXY: 'true' });
  });
  afterEach(async () => {
    await t.close();
  });

  const signUpFrom = (ip: string, overrides: Record<string, unknown> = {}) =>
    callProcedure(t, 'mutation', 'auth.signUp', signUpInput(overrides), {
      headers: { 'x-forwarded-for': ip },
    });

  it(`allows ${SIGN_UPS_PER_CLIENT.max} sign-ups per client address in 15 minutes, at once or not`, async () => {
    const burst = await Promise.all(
      Array.from({ length: SIGN_UPS_PER_CLIENT.max + 5 }, () => signUpFrom('203.0.113.5')),
    );
    expect(burst.filter((r) => r.status === 200)).toHaveLength(SIGN_UPS_PER_CLIENT.max);
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    for (const res of refused) {
      expect(res.body.error?.message).toBe(TOO_MANY_SIGN_UPS);
      expect(res.setCookies).toEqual([]);
    }
    const { users, outbox, rateLimitHits } = tablesOf(t.deps.db);
    expect(await t.deps.db.select().from(users)).toHaveLength(SIGN_UPS_PER_CLIENT.max);
    expect(await t.deps.db.select().from(outbox)).toHaveLength(SIGN_UPS_PER_CLIENT.max);

    expect((await signUpFrom('198.51.100.6')).status).toBe(200);
    t.clock.advance(15 * MINUTE);
    expect((await signUpFrom('203.0.113.5')).status).toBe(200);
    // The clean-up job keeps only the counts still inside their window (the hourly total's are).
    await pruneExpiredAccountRows(t.deps);
    const kept = await t.deps.db.select().from(rateLimitHits);
    expect(kept.filter((hit) => hit.limitName !== 'sign-up/all')).toHaveLength(2);
  });

  it(`allows ${SIGN_UPS_PER_EMAIL.max} sign-up attempts per e-mail address, from any client`, async () => {
    const email = uniqueEmail('target');
    const answers = [];
    for (let i = 0; i < SIGN_UPS_PER_EMAIL.max + 1; i++) {
      answers.push(await signUpFrom(`203.0.113.${20 + i}`, { email }));
    }
    expect(answers.map((r) => r.status)).toEqual([200, ...Array(SIGN_UPS_PER_EMAIL.max - 1).fill(409), 429]);
    expect(answers.at(-1)!.body.error?.message).toBe(TOO_MANY_SIGN_UPS);
    expect(await mailsTo(t, email)).toHaveLength(1);
  });
});

describe('verification and reset mail limits', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), { TRUST_PROXY: 'true' });
  });
  afterEach(async () => {
    await t.close();
  });

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it(`answers ${ACCOUNT_MAILS_PER_CLIENT.max} reset requests per client address, then 429 for known and unknown addresses alike`, async () => {
    const person = await signUpVia(t);
    const targets = [person.email, uniqueEmail('nobody')];
    for (let i = 0; i < ACCOUNT_MAILS_PER_CLIENT.max; i++) {
      const res = await callProcedure(
        t,
        'mutation',
        'auth.requestPasswordReset',
        { email: uniqueEmail('spray') },
        from('203.0.113.7'),
      );
      expect(res.status).toBe(200);
    }
    const { outbox } = tablesOf(t.deps.db);
    const queued = (await t.deps.db.select().from(outbox)).length;
    for (const email of targets) {
      const res = await callProcedure(
        t,
        'mutation',
        'auth.requestPasswordReset',
        { email },
        from('203.0.113.7'),
      );
      expect(res.status, email).toBe(429);
      expect(res.body.error?.message).toBe(TOO_MANY_MAILS);
    }
    expect(await t.deps.db.select().from(outbox)).toHaveLength(queued);
    const elsewhere = await callProcedure(
      t,
      'mutation',
      'auth.requestPasswordReset',
      { email: person.email },
      from('198.51.100.8'),
    );
    expect(elsewhere.status).toBe(200);
  });

  it('counts verification resends and reset requests from one client address together', async () => {
    const person = await signUpVia(t);
    const half = Math.floor(ACCOUNT_MAILS_PER_CLIENT.max / 2);
    for (let i = 0; i < ACCOUNT_MAILS_PER_CLIENT.max - half; i++) {
      const res = await callProcedure(t, 'mutation', 'auth.resendVerification', undefined, {
        cookie: person.cookie,
        ...from('203.0.113.9'),
      });
      expect(res.status).toBe(200);
    }
    for (let i = 0; i < half; i++) {
      const res = await callProcedure(
        t,
        'mutation',
        'auth.requestPasswordReset',
        { email: uniqueEmail('spray') },
        from('203.0.113.9'),
      );
      expect(res.status).toBe(200);
    }
    const resend = await callProcedure(t, 'mutation', 'auth.resendVerification', undefined, {
      cookie: person.cookie,
      ...from('203.0.113.9'),
    });
    expect(resend.status).toBe(429);
    expect(resend.body.error?.message).toBe(TOO_MANY_MAILS);
    t.clock.advance(15 * MINUTE);
    const later = await callProcedure(t, 'mutation', 'auth.resendVerification', undefined, {
      cookie: person.cookie,
      ...from('203.0.113.9'),
    });
    expect(later.status).toBe(200);
  });
});

function mailsTo(t: TestApp, to: string) {
  const { outbox } = tablesOf(t.deps.db);
  return t.deps.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(outbox.id);
}
