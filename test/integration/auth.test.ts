import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { sessionCookieFrom, signInVia, signUpInput, signUpVia, uniqueEmail } from './auth-helpers.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('sign up', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('creates the account with every §3 field, signs the person in and queues a verification mail', async () => {
    const input = signUpInput({ email: '  Asha.Verma@Example.COM ' });
    const res = await callProcedure(t, 'mutation', 'auth.signUp', input);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      name: 'Asha Verma',
      email: 'asha.verma@example.com',
      phone: '9876543210',
      imageUrl: null,
      isEmailVerified: false,
      bookingIdsList: [],
      hasPassword: true,
    });
    const { users, outbox } = tablesOf(t.deps.db);
    const [row] = await t.deps.db.select().from(users).where(eq(users.email, 'asha.verma@example.com'));
    if (!row) throw new Error('no account row');
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.isEmailVerified).toBe(false);
    expect(row.imageUrl).toBeNull();
    expect(row.bookingIdsList).toEqual([]);

    const cookie = sessionCookieFrom(res.setCookies)!;
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie });
    expect(me.data).toMatchObject({ id: row.id, email: 'asha.verma@example.com' });

    const mails = await t.deps.db.select().from(outbox).where(eq(outbox.to, 'asha.verma@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Verify your email address for Jalsa');
    expect(mails[0]!.html).toContain('http://localhost/verify-email?token=');
    expect(mails[0]!.text).toContain('http://localhost/verify-email?token=');
  });

  it('stores no phone when the optional mobile is left empty', async () => {
    const res = await callProcedure(t, 'mutation', 'auth.signUp', signUpInput({ mobile: '' }));
    expect(res.status).toBe(200);
    expect((res.data as { phone: unknown }).phone).toBeNull();
  });

  it.each([
    ['name', { name: '' }, 'Name is required'],
    ['name', { name: '  a  ' }, 'Name must be at least 2 characters'],
    ['email', { email: '' }, 'Email is required'],
    ['email', { email: 'not-an-address' }, 'Please enter a valid email address'],
    ['mobile', { mobile: '12345' }, 'Please enter a valid 10-digit mobile number'],
    ['mobile', { mobile: '5876543210' }, 'Please enter a valid 10-digit mobile number'],
    ['password', { password: '', confirmPassword: '' }, 'Password is required'],
    ['password', { password: 'abc', confirmPassword: 'abc' }, 'Password must be at least 6 characters'],
    ['confirmPassword', { confirmPassword: '' }, 'Please confirm your password'],
    ['confirmPassword', { confirmPassword: 'different' }, 'Passwords do not match'],
    ['acceptTerms', { acceptTerms: false }, 'Please accept the Terms of Service and Privacy Policy'],
  ])('answers %s errors with the spec message: %j', async (field, overrides, message) => {
    const res = await callProcedure(t, 'mutation', 'auth.signUp', signUpInput(overrides));
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors?.[field]).toBe(message);
    expect(await t.deps.db.select().from(tablesOf(t.deps.db).users)).toHaveLength(0);
  });

  it("says 'An account with this email already exists' on the email field, whatever the case", async () => {
    const first = await signUpVia(t);
    const res = await callProcedure(
      t,
      'mutation',
      'auth.signUp',
      signUpInput({ email: first.email.toUpperCase() }),
    );
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe('An account with this email already exists');
    expect(res.body.error?.data.fieldErrors).toEqual({ email: 'An account with this email already exists' });
    expect(res.setCookies).toEqual([]);
  });
});

describe('sign in', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('signs in with the right password and sets a session cookie with the security flags', async () => {
    const person = await signUpVia(t);
    const res = await signInVia(t, person.email, person.password);
    expect(res.status).toBe(200);
    const header = res.setCookies.find((c) => c.startsWith('jalsa_session='))!;
    expect(header).toMatch(/^jalsa_session=[a-z2-7]{32}; /);
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Lax');
    expect(header).toContain('Path=/');
    expect(header).not.toContain('Secure');
    const me = await callProcedure(t, 'query', 'auth.me', undefined, {
      cookie: sessionCookieFrom(res.setCookies),
    });
    expect((me.data as { email: string }).email).toBe(person.email);
  });

  it('marks the cookie Secure in production', async () => {
    const prod = await createTestAppOn(testEngine(), {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://tickets.example.in',
    });
    try {
      const res = await callProcedure(prod, 'mutation', 'auth.signUp', signUpInput());
      expect(res.setCookies.find((c) => c.startsWith('jalsa_session='))).toMatch(/; Secure/);
    } finally {
      await prod.close();
    }
  });

  it('answers an unknown email and a wrong password alike, as a general error', async () => {
    const person = await signUpVia(t);
    const wrong = await signInVia(t, person.email, 'wrong-password');
    const unknown = await signInVia(t, uniqueEmail('nobody'), 'wrong-password');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error?.message).toBe('Invalid email or password');
      expect(res.body.error?.data.fieldErrors).toBeUndefined();
      expect(res.setCookies).toEqual([]);
    }
  });

  it.each([
    ['email', { email: '', password: 'secret-pass' }, 'Email is required'],
    ['email', { email: 'asha@', password: 'secret-pass' }, 'Please enter a valid email address'],
    ['password', { email: 'asha@example.com', password: '' }, 'Password is required'],
    ['password', { email: 'asha@example.com', password: '12345' }, 'Password must be at least 6 characters'],
  ])('answers %s errors with the spec message: %j', async (field, input, message) => {
    const res = await callProcedure(t, 'mutation', 'auth.signIn', input);
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors?.[field]).toBe(message);
  });

  it('blocks an account after 5 failures in 15 minutes, even with the right password, then lets it in again', async () => {
    const person = await signUpVia(t);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(MINUTE);
      const res = await signInVia(t, person.email, `wrong-${i}`, { ip: `10.0.0.${i}` });
      expect(res.body.error?.message).toBe('Invalid email or password');
    }
    const blocked = await signInVia(t, person.email, person.password, { ip: '10.0.1.1' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error?.message).toBe('Too many failed login attempts. Please try again later');
    expect(blocked.setCookies).toEqual([]);

    // The first failure leaves the 15-minute window 15 minutes after it happened.
    t.clock.advance(11 * MINUTE + 1);
    const allowed = await signInVia(t, person.email, person.password, { ip: '10.0.1.1' });
    expect(allowed.status).toBe(200);
  });

  it('blocks a client address after 20 failures across accounts, but not other addresses', async () => {
    // Addresses come from X-Forwarded-For, which the app believes only behind a trusted proxy.
    await t.close();
    t = await createTestAppOn(testEngine(), { TRUST_PROXY: 'true' });
    const person = await signUpVia(t);
    for (let i = 0; i < 20; i++) {
      const res = await signInVia(t, uniqueEmail('guess'), 'wrong-password', { ip: '203.0.113.9' });
      expect(res.status).toBe(401);
    }
    const fromSameAddress = await signInVia(t, person.email, person.password, { ip: '203.0.113.9' });
    expect(fromSameAddress.status).toBe(429);
    expect(fromSameAddress.body.error?.message).toBe(
      'Too many failed login attempts. Please try again later',
    );
    const fromElsewhere = await signInVia(t, person.email, person.password, { ip: '198.51.100.7' });
    expect(fromElsewhere.status).toBe(200);
  });

  it('issues a fresh token at every sign-in and ends the session the browser came with', async () => {
    const person = await signUpVia(t);
    const first = await signInVia(t, person.email, person.password);
    const second = await signInVia(t, person.email, person.password, {
      cookie: sessionCookieFrom(first.setCookies),
    });
    const a = sessionCookieFrom(first.setCookies)!;
    const b = sessionCookieFrom(second.setCookies)!;
    expect(a).not.toBe(b);
    expect((await callProcedure(t, 'query', 'auth.me', undefined, { cookie: a })).data).toBeNull();
    expect((await callProcedure(t, 'query', 'auth.me', undefined, { cookie: b })).data).not.toBeNull();
    // The sign-up session was not sent along, so it stays valid (another device).
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie })).data,
    ).not.toBeNull();
  });

  it('stores only a hash of the token, never the token itself', async () => {
    const person = await signUpVia(t);
    const token = person.cookie.split('=')[1]!;
    const rows = await t.deps.db.select().from(tablesOf(t.deps.db).sessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.id).not.toContain(token);
  });

  it('refuses a sign-in posted from another site', async () => {
    const person = await signUpVia(t);
    const evil = await callProcedure(
      t,
      'mutation',
      'auth.signIn',
      { email: person.email, password: person.password },
      { origin: 'https://evil.example' },
    );
    expect(evil.status).toBe(403);
    expect(evil.setCookies).toEqual([]);
    const same = await callProcedure(
      t,
      'mutation',
      'auth.signIn',
      { email: person.email, password: person.password },
      { origin: 'http://localhost' },
    );
    expect(same.status).toBe(200);
  });
});

describe('sessions', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('logout deletes the session on the server and clears the cookie', async () => {
    const person = await signUpVia(t);
    const out = await callProcedure(t, 'mutation', 'auth.signOut', undefined, { cookie: person.cookie });
    expect(out.status).toBe(200);
    expect(out.setCookies.find((c) => c.startsWith('jalsa_session='))).toMatch(
      /^jalsa_session=; .*Max-Age=0/,
    );
    expect(await t.deps.db.select().from(tablesOf(t.deps.db).sessions)).toHaveLength(0);
    // A copy of the old cookie no longer works.
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie })).data,
    ).toBeNull();
    const profile = await callProcedure(t, 'mutation', 'auth.updateProfile', profileInput(), {
      cookie: person.cookie,
    });
    expect(profile.status).toBe(401);
  });

  it('slides the expiry forward while the session is used, and expires after 30 idle days', async () => {
    const person = await signUpVia(t);
    t.clock.advance(20 * DAY);
    const renewed = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie });
    expect(renewed.data).not.toBeNull();
    expect(renewed.setCookies.find((c) => c.startsWith('jalsa_session='))).toContain('HttpOnly');
    t.clock.advance(29 * DAY);
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie })).data,
    ).not.toBeNull();
    t.clock.advance(31 * DAY);
    expect(
      (await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie })).data,
    ).toBeNull();
  });

  it('never returns a password hash or a token in account data', async () => {
    const person = await signUpVia(t);
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie });
    const json = JSON.stringify(me.body);
    expect(json).not.toMatch(/argon2|passwordHash|password_hash/);
    expect(json).not.toContain(person.cookie.split('=')[1]);
    expect(Object.keys(me.data as object).sort()).toEqual(
      [
        'about',
        'bookingIdsList',
        'country',
        'email',
        'gender',
        'googleLinked',
        'hasPassword',
        'id',
        'imageUrl',
        'isEmailVerified',
        'name',
        'phone',
        'state',
        'updatedAt',
      ].sort(),
    );
  });
});

describe('profile', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('saves name, phone, gender, country, state and about, and not the email', async () => {
    const person = await signUpVia(t);
    const res = await callProcedure(
      t,
      'mutation',
      'auth.updateProfile',
      { ...profileInput(), email: 'someone-else@example.com' },
      { cookie: person.cookie },
    );
    expect(res.status).toBe(200);
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie });
    expect(me.data).toMatchObject({
      name: 'Asha V',
      phone: '9123456780',
      gender: 'female',
      country: 'india',
      state: 'Karnataka',
      about: 'Loves live music',
      email: person.email,
    });
  });

  it('clears optional fields saved empty', async () => {
    const person = await signUpVia(t);
    await callProcedure(t, 'mutation', 'auth.updateProfile', profileInput(), { cookie: person.cookie });
    await callProcedure(
      t,
      'mutation',
      'auth.updateProfile',
      { name: 'Asha V', phone: '', gender: '', country: '', state: '', about: '' },
      { cookie: person.cookie },
    );
    const me = await callProcedure(t, 'query', 'auth.me', undefined, { cookie: person.cookie });
    expect(me.data).toMatchObject({ phone: null, gender: null, country: null, state: null, about: null });
  });

  it.each([
    ['name', { name: '' }, 'Name is required'],
    ['name', { name: 'A' }, 'Name must be at least 2 characters'],
    ['phone', { phone: '98765' }, 'Please enter a valid 10-digit mobile number'],
  ])('validates %s with the sign-up rules: %j', async (field, overrides, message) => {
    const person = await signUpVia(t);
    const res = await callProcedure(
      t,
      'mutation',
      'auth.updateProfile',
      { ...profileInput(), ...overrides },
      { cookie: person.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors?.[field]).toBe(message);
  });

  it('refuses a visitor who is not signed in', async () => {
    const res = await callProcedure(t, 'mutation', 'auth.updateProfile', profileInput());
    expect(res.status).toBe(401);
    expect(res.body.error?.message).toBe('User not authenticated');
  });
});

function profileInput() {
  return {
    name: 'Asha V',
    phone: '9123456780',
    gender: 'female',
    country: 'india',
    state: 'Karnataka',
    about: 'Loves live music',
  };
}
