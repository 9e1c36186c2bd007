import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { MESSAGES, type signUpSchema } from '../../../shared/auth-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict } from '../../errors.ts';
import { queueVerificationMailSteps } from './email-verification.ts';
import { hashPassword } from './passwords.ts';
import { limitSignUps } from './request-limits.ts';
import { createSessionSteps } from './sessions.ts';

export interface NewSession {
  userId: string;
  token: string;
  expiresAt: Date;
}

/**
 * Creates the account (spec §3 User: no image, e-mail not yet verified, no bookings), signs the person
 * in and queues the verification mail, all in one transaction. Attempts are limited per e-mail address
 * and per client address, and all together per hour (request-limits.ts), counted before the address is
 * checked for an account.
 */
export async function signUp(
  deps: Pick<AppDeps, 'db' | 'clock' | 'env'>,
  input: z.output<typeof signUpSchema>,
  requestOrigin: string,
  clientIp: string,
): Promise<NewSession> {
  await limitSignUps(deps.db, input.email, clientIp, deps.clock.now(), deps.env.SIGN_UPS_PER_HOUR);
  const run = runnerFor(deps.db);
  if (await run.read((db) => emailTakenSteps(db, input.email))) throw emailTakenError();
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  const userId = randomUUID();
  const baseUrl = publicLinkBase(deps.env.PUBLIC_URL, requestOrigin);
  try {
    return await run.write(function* (tx) {
      const { users } = tablesOf(tx);
      // Checked again inside the write: another sign-up may have won while the password was hashing.
      if (yield* emailTakenSteps(tx, input.email)) throw emailTakenError();
      yield* changes(
        tx.insert(users).values({
          id: userId,
          name: input.name,
          email: input.email,
          phone: input.mobile === '' ? null : input.mobile,
          imageUrl: null,
          isEmailVerified: false,
          passwordHash,
          bookingIdsList: [],
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        }),
      );
      yield* queueVerificationMailSteps(tx, { userId, email: input.email, baseUrl, now });
      const session = yield* createSessionSteps(tx, userId, now);
      return { userId, token: session.token, expiresAt: session.expiresAt };
    });
  } catch (err) {
    // Two sign-ups for one address at once on PostgreSQL: both pass the check, the unique index refuses one.
    if (isUniqueViolation(err)) throw emailTakenError();
    throw err;
  }
}

function* emailTakenSteps(db: DbOrTx, email: string): Steps<boolean> {
  const { users } = tablesOf(db);
  return (yield* row(db.select({ id: users.id }).from(users).where(eq(users.email, email)))) !== undefined;
}

function emailTakenError() {
  return conflict(MESSAGES.emailTaken, { email: MESSAGES.emailTaken });
}

export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    // SQLite's codes, and PostgreSQL's unique_violation.
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505') {
      return true;
    }
  }
  return false;
}
