import { and, count, eq, gt } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type changePasswordSchema,
  MESSAGES,
  type resetPasswordSchema,
} from '../../../shared/auth-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest, unauthorized } from '../../errors.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { passwordResetMail } from './emails.ts';
import { clearFailedSignInsSteps } from './login-throttle.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { limitAccountMailRequests } from './request-limits.ts';
import { createSessionSteps, invalidateUserSessionsSteps } from './sessions.ts';
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
  const base = publicLinkBase(deps.env.PUBLIC_URL, requestOrigin);
  return runnerFor(deps.db).write(function* (tx) {
    const { users, passwordResetTokens } = tablesOf(tx);
    const user = yield* row(
      tx
        .select({ id: users.id, name: users.name, email: users.email, verified: users.isEmailVerified })
        .from(users)
        .where(eq(users.email, email)),
    );
    if (!user) return;
    // Per account, one request at a time: two at once cannot both pass on the same count.
    yield* serialize(`password-reset-mail:${user.id}`);
    const recent = yield* row(
      tx
        .select({ n: count() })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.userId, user.id),
            gt(passwordResetTokens.createdAt, new Date(now.getTime() - RESET_WINDOW_MS).toISOString()),
          ),
        ),
    );
    if (Number(recent?.n ?? 0) >= RESET_MAILS_PER_WINDOW) return;
    const { token, id } = newLinkToken();
    yield* changes(
      tx.insert(passwordResetTokens).values({
        id,
        userId: user.id,
        expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      }),
    );
    const url = `${base}/reset-password?token=${encodeURIComponent(token)}`;
    yield* enqueueMailSteps(
      tx as WriteTx,
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
  const run = runnerFor(deps.db);
  const found = await run.read(function* (db) {
    const { passwordResetTokens } = tablesOf(db);
    return yield* row(
      db
        .select({ expiresAt: passwordResetTokens.expiresAt })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.id, tokenId)),
    );
  });
  if (!found || new Date(found.expiresAt) <= deps.clock.now()) throw badRequest(MESSAGES.resetLinkInvalid);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  await run.write(function* (tx) {
    const { users, passwordResetTokens } = tablesOf(tx);
    // The DELETE claims the link: a second use at once waits for this row's lock and finds it gone.
    const claimed = yield* row(
      tx
        .delete(passwordResetTokens)
        .where(eq(passwordResetTokens.id, tokenId))
        .returning({ userId: passwordResetTokens.userId, expiresAt: passwordResetTokens.expiresAt }),
    );
    // Gone means another request used the link while the password was hashing.
    if (!claimed || new Date(claimed.expiresAt) <= now) throw badRequest(MESSAGES.resetLinkInvalid);
    const user = yield* row(
      tx
        .update(users)
        .set({ passwordHash, isEmailVerified: true, updatedAt: now.toISOString() })
        .where(eq(users.id, claimed.userId))
        .returning({ email: users.email }),
    );
    yield* changes(tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, claimed.userId)));
    yield* invalidateUserSessionsSteps(tx, claimed.userId);
    if (user) yield* clearFailedSignInsSteps(tx, user.email);
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
  const { users } = tablesOf(deps.db);
  const [user] = await deps.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw unauthorized();
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw badRequest(MESSAGES.currentPasswordWrong, { currentPassword: MESSAGES.currentPasswordWrong });
  }
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  return runnerFor(deps.db).write(function* (tx) {
    const { users } = tablesOf(tx);
    yield* changes(
      tx.update(users).set({ passwordHash, updatedAt: now.toISOString() }).where(eq(users.id, userId)),
    );
    yield* invalidateUserSessionsSteps(tx, userId);
    const session = yield* createSessionSteps(tx, userId, now);
    return { userId, token: session.token, expiresAt: session.expiresAt };
  });
}
