import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { emailVerificationTokens, users } from '../../src-server/db/schema/accounts.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { newLinkToken } from '../../src-server/services/accounts/tokens.ts';
import {
  callServer,
  FAULT_APP_SECRET,
  faultDataDir,
  type ProcedureAnswer,
  waitUntil,
} from '../helpers/fault-process.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { allowLocalServers } from '../mocks/server.ts';

/**
 * Issue 18, item 3: with WEB_CONCURRENCY=2 a burst of sign-ups, password-reset requests, verification
 * resends and verifications got 4–6 % 500s (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT). Those transactions
 * began deferred, read, and then could not upgrade to a write when the other process had committed in
 * between. Every write transaction now begins IMMEDIATE (db/write-transaction.ts).
 */

beforeEach(allowLocalServers);

/** Accounts written straight into the database: unverified, signed in, each with a verification link. */
const ACCOUNTS = 40;
/** Sign-ups per round (argon2 makes each cost tens of milliseconds of CPU). */
const SIGN_UPS = 12;
const ROUNDS = 3;

interface Account {
  email: string;
  cookie: string;
  verificationToken: string;
}

describe('WEB_CONCURRENCY=2: a burst of account writes on both workers', () => {
  let scratch: ReturnType<typeof faultDataDir>;
  let database: DatabaseHandle;
  let server: ServerProcess;

  beforeAll(async () => {
    allowLocalServers();
    scratch = faultDataDir();
    database = scratch.database;
    server = await startServerProcess({
      dataDir: scratch.dataDir,
      env: { WEB_CONCURRENCY: '2', SEED_DEMO_DATA: 'false', APP_SECRET: FAULT_APP_SECRET, LOG_LEVEL: 'info' },
    });
    // /healthz answers once the first worker listens; wait for both.
    await waitUntil(
      () => (server.output().match(/Jalsa is listening/g)?.length ?? 0) >= 2,
      'two workers listening',
      () => server.output(),
    );
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    scratch?.remove();
  }, 30_000);

  it('answers every sign-up, reset request, resend and verification without a 5xx', async () => {
    const accounts = Array.from({ length: ACCOUNTS }, () => unverifiedAccount(database));
    const answers: { procedure: string; answer: ProcedureAnswer }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const burst = [
        ...Array.from({ length: SIGN_UPS }, () => ['auth.signUp', signUpInput(), undefined] as const),
        ...accounts.flatMap((a) => [
          ['auth.requestPasswordReset', { email: a.email }, undefined] as const,
          ['auth.resendVerification', undefined, a.cookie] as const,
          ['auth.verifyEmail', { token: a.verificationToken }, undefined] as const,
        ]),
      ];
      answers.push(
        ...(await Promise.all(
          shuffled(burst, round).map(async ([procedure, input, cookie]) => ({
            procedure,
            answer: await callServer(server, 'mutation', procedure, input, cookie),
          })),
        )),
      );
    }

    expect(answers).toHaveLength(ROUNDS * (SIGN_UPS + 3 * ACCOUNTS));
    // Answered as successes, or refused by a rate limit; never a server error.
    const unexpected = answers.filter(({ answer }) => answer.status !== 200 && answer.status !== 429);
    expect(
      unexpected.map(({ procedure, answer }) => `${procedure}: ${answer.status} ${answer.error?.message}`),
    ).toEqual([]);
    const verifiedEmails = new Set(
      database.db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.isEmailVerified, true))
        .all()
        .map((u) => u.email),
    );
    expect(accounts.filter((a) => !verifiedEmails.has(a.email))).toEqual([]);
  }, 120_000);
});

function unverifiedAccount(database: DatabaseHandle): Account {
  const userId = randomUUID();
  const email = `burst-${userId.slice(0, 8)}@example.com`;
  const now = new Date();
  database.db
    .insert(users)
    .values({
      id: userId,
      email,
      name: 'Burst Tester',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .run();
  const { token } = createSession(database.db, userId, now);
  const link = newLinkToken();
  database.db
    .insert(emailVerificationTokens)
    .values({
      id: link.id,
      userId,
      email,
      expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
      createdAt: now.toISOString(),
    })
    .run();
  return { email, cookie: `${SESSION_COOKIE}=${token}`, verificationToken: link.token };
}

function signUpInput() {
  return {
    name: 'Burst Newcomer',
    email: `new-${randomUUID().slice(0, 12)}@example.com`,
    mobile: '',
    password: 'correct horse',
    confirmPassword: 'correct horse',
    acceptTerms: true,
  };
}

/** A fixed shuffle per round, so the kinds of request interleave the same way on every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed + 1;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
