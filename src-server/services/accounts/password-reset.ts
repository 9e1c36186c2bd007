import { and, count, eq, gt } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type changePasswordSchema,
  MESSAGES,
  type resetPasswordSchema,
} from '../../../shared/auth-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import { passwordResetTokens, users } from '../../db/schema/accounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, unauthorized } from '../../errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { passwordResetMail } from './emails.ts';
import { clearFailedSignIns } from './login-throttle.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { limitAccountMailRequests } from './request-limits.ts';
import { createSession, invalidateUserSessions } from './sessions.ts';
import type { NewSession } from './sign-up.ts';
import { linkTokenId, newLinkToken } from './tokens.ts';

export const RESET_TTL_MS = 30 * 60_000;
/** Reset mails per account per window; more requests are answered the same way but send nothing. */
const RESET_MAILS_PER_WINDOW = 3;
const RESET_WINDOW_MS = 15 * 60_000;

type Deps = Pick<AppDeps, 'db' | 'clock' | 'env'>;

/**
 * Queues a reset link if the address has an account. The caller answers the same way whatever happens
 * here, so the form does not reveal who has an account; the one refusal, too many requests from this
 * client address, is counted before the address is looked up and says nothing about it either.
 */
export async function requestPasswordReset(
  deps: Deps,
  email: string,
  requestOrigin: string,
  clientIp: string,
): Promise<void> {
  const now = deps.clock.now();
  await limitAccountMailRequests(deps.db, clientIp, now);
  return writeTransaction(deps.db, (tx) => {
    const user = tx
      .select({ id: users.id, name: users.name, email: users.email, verified: users.isEmailVerified })
      .from(users)
      .where(eq(users.email, email))
      .get();
    if (!user) return;
    const recent = tx
      .select({ n: count() })
      .from(passwordResetTokens)
      .where(
        and(
          eq(passwordResetTokens.userId, user.id),
          gt(passwordResetTokens.createdAt, new Date(now.getTime() - RESET_WINDOW_MS).toISOString()),
        ),
      )
      .get();
    if ((recent?.n ?? 0) >= RESET_MAILS_PER_WINDOW) return;
    const { token, id } = newLinkToken();
    tx.insert(passwordResetTokens)
      .values({
        id,
        userId: user.id,
        expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      })
      .run();
    const url = `${publicLinkBase(deps.env.PUBLIC_URL, requestOrigin)}/reset-password?token=${encodeURIComponent(token)}`;
    enqueueMail(
      tx,
      passwordResetMail({ to: user.email, name: user.verified ? user.name : null, url, tokenId: id }),
      now,
    );
  });
}

/**
 * Sets a new password from a reset link. The link works once (its row is deleted in the same
 * transaction, and so are the account's other reset links) and for 30 minutes. Every session of the
 * account ends. The link proved the mailbox, so the address counts as verified.
 */
export async function resetPassword(deps: Deps, input: z.output<typeof resetPasswordSchema>): Promise<void> {
  const tokenId = linkTokenId(input.token);
  const found = deps.db
    .select({ expiresAt: passwordResetTokens.expiresAt })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.id, tokenId))
    .get();
  if (!found || new Date(found.expiresAt) <= deps.clock.now()) throw badRequest(MESSAGES.resetLinkInvalid);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  await writeTransaction(deps.db, (tx) => {
    const row = tx
      .delete(passwordResetTokens)
      .where(eq(passwordResetTokens.id, tokenId))
      .returning({ userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt })
      .get();
    // Gone means another request used the link while the password was hashing.
    if (!row || new Date(row.expiresAt) <= now) throw badRequest(MESSAGES.resetLinkInvalid);
    const user = tx
      .update(users)
      .set({ passwordHash, isEmailVerified: true, updatedAt: now.toISOString() })
      .where(eq(users.id, row.userId))
      .returning({ email: users.email })
      .get();
    tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, row.userId)).run();
    invalidateUserSessions(tx, row.userId);
    if (user) clearFailedSignIns(tx, user.email);
  });
}

/**
 * Changes the signed-in person's password after checking the current one (an account made through
 * Google that has no password yet may set one). Every session ends, and this browser gets a new one.
 */
export async function changePassword(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  userId: string,
  input: z.output<typeof changePasswordSchema>,
): Promise<NewSession> {
  const user = deps.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user) throw unauthorized();
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest(MESSAGES.currentPasswordWrong, { currentPassword: MESSAGES.currentPasswordWrong });
  }
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  return writeTransaction(deps.db, (tx) => {
    tx.update(users).set({ passwordHash, updatedAt: now.toISOString() }).where(eq(users.id, userId)).run();
    invalidateUserSessions(tx, userId);
    const session = createSession(tx, userId, now);
    return { userId, token: session.token, expiresAt: session.expiresAt };
  });
}
