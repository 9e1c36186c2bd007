import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_BATCH_ITEMS } from '../../shared/trpc-batch.ts';
import { createTrpcClient } from '../../src-client/lib/trpc.ts';
import { failedLogins, sessions } from '../../src-server/db/schema/accounts.ts';
import {
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
} from '../../src-server/services/accounts/login-throttle.ts';
import { listen } from '../helpers/listen.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signUpVia, uniqueEmail } from './auth-helpers.ts';

/**
 * Replays of the audit's password-guessing attacks (issue 18, item 1). The limit used to be checked
 * before the slow password hash and recorded after it, so every guess already waiting for its hash
 * passed: one tRPC batch of 400 guesses got 399 answers 'Invalid email or password' and signed in with
 * the last one. The password module is wrapped (and otherwise real) to count the checks that ran and,
 * for parallel connections, to hold them until every request has either reached its check or been
 * answered: the hash is slow under load, and that wait is the window the attack used.
 */
const TOO_MANY = 'Too many failed login attempts. Please try again later';

const checks = vi.hoisted(() => ({
  count: 0,
  /** While set, each check waits for `released` after calling `started`. */
  gate: null as null | { started: () => void; released: Promise<void> },
}));

vi.mock('../../src-server/services/accounts/passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src-server/services/accounts/passwords.ts')>();
  const counted =
    <Args extends unknown[], Result>(check: (...args: Args) => Promise<Result>) =>
    async (...args: Args) => {
      checks.count += 1;
      const gate = checks.gate;
      if (gate) {
        gate.started();
        await gate.released;
      }
      return check(...args);
    };
  return {
    ...real,
    verifyPassword: counted(real.verifyPassword),
    verifyAgainstDummy: counted(real.verifyAgainstDummy),
  };
});

describe('password guessing in batches and on parallel connections', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp({ TRUST_PROXY: 'true' });
    checks.count = 0;
  });
  afterEach(() => {
    checks.gate = null;
    t.close();
  });

  it('one batch of guesses on one account checks at most the allowed number, and the right password past the limit does not sign in', async () => {
    const person = await signUpVia(t);
    const guesses = Array.from({ length: MAX_BATCH_ITEMS }, (_, i) => ({
      email: person.email,
      password: i === MAX_BATCH_ITEMS - 1 ? person.password : `wrong-guess-${i}`,
    }));
    const { items, setCookies } = await signInBatch(t, guesses, '203.0.113.10');
    expect(checks.count).toBe(MAX_FAILURES_PER_ACCOUNT);
    expect(statusCounts(items)).toEqual({
      401: MAX_FAILURES_PER_ACCOUNT,
      429: MAX_BATCH_ITEMS - MAX_FAILURES_PER_ACCOUNT,
    });
    const last = items.at(-1)!;
    expect(last.error?.data.httpStatus).toBe(429);
    expect(last.error?.message).toBe(TOO_MANY);
    expect(setCookies).toEqual([]);
    expect(t.deps.db.select().from(sessions).all()).toHaveLength(1); // the sign-up's own
  });

  it('several batches at once on one account check at most the allowed number between them', async () => {
    const person = await signUpVia(t);
    const batches = await Promise.all(
      Array.from({ length: 4 }, (_, b) =>
        signInBatch(
          t,
          Array.from({ length: MAX_BATCH_ITEMS }, (_, i) => ({
            email: person.email,
            password: `wrong-${b}-${i}`,
          })),
          `203.0.113.${20 + b}`,
        ),
      ),
    );
    const counts = statusCounts(batches.flatMap((b) => b.items));
    expect(checks.count).toBe(MAX_FAILURES_PER_ACCOUNT);
    expect(counts[401]).toBe(MAX_FAILURES_PER_ACCOUNT);
    expect(counts[429]).toBe(4 * MAX_BATCH_ITEMS - MAX_FAILURES_PER_ACCOUNT);
    const right = await signInBatch(t, [{ email: person.email, password: person.password }], '203.0.113.30');
    expect(right.items[0]!.error?.message).toBe(TOO_MANY);
  });

  it('batches from one client address over many accounts check at most the per-address number', async () => {
    const batches = await Promise.all(
      Array.from({ length: 4 }, () =>
        signInBatch(
          t,
          Array.from({ length: MAX_BATCH_ITEMS }, () => ({
            email: uniqueEmail('guess'),
            password: 'wrong-guess',
          })),
          '198.51.100.9',
        ),
      ),
    );
    const counts = statusCounts(batches.flatMap((b) => b.items));
    expect(checks.count).toBe(MAX_FAILURES_PER_ADDRESS);
    expect(counts[401]).toBe(MAX_FAILURES_PER_ADDRESS);
    expect(counts[429]).toBe(4 * MAX_BATCH_ITEMS - MAX_FAILURES_PER_ADDRESS);
  });

  it('parallel sign-ins on separate connections check at most the allowed number', async () => {
    const person = await signUpVia(t);
    const server = await listen(t);
    const attempts = 30;
    let started = 0;
    let answered = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // Every request has either reached its password check (held here) or been answered.
    const settle = () => started + answered === attempts && release();
    checks.gate = {
      started: () => {
        started += 1;
        settle();
      },
      released,
    };
    try {
      const answers = await Promise.all(
        Array.from({ length: attempts }, async (_, i) => {
          const res = await fetch(`${server.url}/trpc/auth.signIn`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              email: person.email,
              password: i === attempts - 1 ? person.password : `wrong-guess-${i}`,
            }),
          });
          answered += 1;
          settle();
          return res;
        }),
      );
      expect(started).toBe(MAX_FAILURES_PER_ACCOUNT);
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES_PER_ACCOUNT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(attempts - MAX_FAILURES_PER_ACCOUNT);
      expect(answers.flatMap((res) => res.headers.getSetCookie())).toEqual([]);
    } finally {
      release();
      await server.close();
    }
  });

  it('a correct sign-in clears its own attempt, so the owner does not lock themselves out', async () => {
    const person = await signUpVia(t);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT + 2; i++) {
      const { items } = await signInBatch(
        t,
        [{ email: person.email, password: person.password }],
        '203.0.113.40',
      );
      expect(items[0]!.error).toBeUndefined();
    }
    expect(t.deps.db.select().from(failedLogins).all()).toEqual([]);
  });
});

describe('batch size', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp();
  });
  afterEach(() => t.close());

  it(`refuses a batch of more than ${MAX_BATCH_ITEMS} calls with 400, running none of them`, async () => {
    const person = await signUpVia(t);
    const calls = Array.from({ length: MAX_BATCH_ITEMS + 1 }, () => ({
      email: person.email,
      password: 'wrong-guess',
    }));
    const res = await t.request(`/trpc/${calls.map(() => 'auth.signIn').join(',')}?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(calls.map((c, i) => [i, c]))),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error?: { message: string } };
    expect(body.error?.message).toBe('Batch call exceeds maximum size');
    expect(t.deps.db.select().from(failedLogins).all()).toEqual([]);
  });

  it('the app’s own client splits a burst of calls into batches the server accepts', async () => {
    const server = await listen(t);
    try {
      const client = createTrpcClient(`${server.url}/trpc`);
      const answers = await Promise.all(
        Array.from({ length: 3 * MAX_BATCH_ITEMS + 1 }, () => client.events.list.query({})),
      );
      expect(answers.every(Array.isArray)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

interface BatchItem {
  result?: { data: unknown };
  error?: { message: string; data: { httpStatus: number } };
}

/** One POST carrying every sign-in as one tRPC batch, as an attacker sends it. */
async function signInBatch(t: TestApp, calls: { email: string; password: string }[], ip: string) {
  const res = await t.request(`/trpc/${calls.map(() => 'auth.signIn').join(',')}?batch=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(Object.fromEntries(calls.map((c, i) => [i, c]))),
  });
  const items = (await res.json()) as BatchItem[];
  return { items, setCookies: res.headers.getSetCookie() };
}

function statusCounts(items: BatchItem[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const item of items) {
    const status = item.error?.data.httpStatus ?? 200;
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}
