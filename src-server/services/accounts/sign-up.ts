import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { MESSAGES, type signUpSchema } from '../../../shared/auth-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import { users } from '../../db/schema/accounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { conflict } from '../../errors.ts';
import { queueVerificationMail } from './email-verification.ts';
import { hashPassword } from './passwords.ts';
import { limitSignUps } from './request-limits.ts';
import { createSession } from './sessions.ts';

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
  if (emailTaken(deps, input.email)) throw emailTakenError();
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  const userId = randomUUID();
  try {
    return await writeTransaction(deps.db, (tx) => {
      // Checked again inside the write: another sign-up may have won while the password was hashing.
      if (emailTaken({ db: tx }, input.email)) throw emailTakenError();
      tx.insert(users)
        .values({
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
        })
        .run();
      queueVerificationMail(tx, {
        userId,
        email: input.email,
        baseUrl: publicLinkBase(deps.env.PUBLIC_URL, requestOrigin),
        now,
      });
      const session = createSession(tx, userId, now);
      return { userId, token: session.token, expiresAt: session.expiresAt };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTakenError();
    throw err;
  }
}

function emailTaken(deps: { db: Pick<AppDeps['db'], 'select'> }, email: string): boolean {
  return deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get() !== undefined;
}

function emailTakenError() {
  return conflict(MESSAGES.emailTaken, { email: MESSAGES.emailTaken });
}

export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
  }
  return false;
}
