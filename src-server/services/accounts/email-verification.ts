import { and, count, eq, gt } from 'drizzle-orm';
import { MESSAGES } from '../../../shared/auth-schemas.ts';
import { publicLinkBase } from '../../../shared/public-links.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { AppDeps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { verificationMail } from './emails.ts';
import { limitAccountMailRequests } from './request-limits.ts';
import { linkTokenId, newLinkToken } from './tokens.ts';

export const VERIFICATION_TTL_MS = 48 * 60 * 60_000;
/** At most this many verification mails per account per quarter hour (resend button). */
const RESEND_LIMIT = 3;
const RESEND_WINDOW_MS = 15 * 60_000;

/**
 * Creates a verification token and queues its mail, inside the caller's transaction (sign-up), so the
 * mail exists if and only if the account does.
 */
export function* queueVerificationMailSteps(
  tx: DbOrTx,
  options: { userId: string; email: string; baseUrl: string; now: Date },
): Steps<void> {
  const { emailVerificationTokens } = tablesOf(tx);
  const { token, id } = newLinkToken();
  yield* changes(
    tx.insert(emailVerificationTokens).values({
      id,
      userId: options.userId,
      email: options.email,
      expiresAt: new Date(options.now.getTime() + VERIFICATION_TTL_MS).toISOString(),
      createdAt: options.now.toISOString(),
    }),
  );
  const url = `${options.baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
  yield* enqueueMailSteps(
    tx as WriteTx,
    verificationMail({ to: options.email, url, tokenId: id }),
    options.now,
  );
}

/** Sends another verification mail to a signed-in, unverified account (quietly limited). */
export async function resendVerificationMail(
  deps: Pick<AppDeps, 'db' | 'clock' | 'env'>,
  userId: string,
  requestOrigin: string,
  clientIp: string,
): Promise<void> {
  const now = deps.clock.now();
  await limitAccountMailRequests(deps.db, clientIp, now);
  const baseUrl = publicLinkBase(deps.env.PUBLIC_URL, requestOrigin);
  return runnerFor(deps.db).write(function* (tx) {
    const { users, emailVerificationTokens } = tablesOf(tx);
    const user = yield* row(
      tx
        .select({ email: users.email, verified: users.isEmailVerified })
        .from(users)
        .where(eq(users.id, userId)),
    );
    if (!user || user.verified) return;
    // Per account, one resend at a time: two at once cannot both pass on the same count.
    yield* serialize(`verification-mail:${userId}`);
    const recent = yield* row(
      tx
        .select({ n: count() })
        .from(emailVerificationTokens)
        .where(
          and(
            eq(emailVerificationTokens.userId, userId),
            gt(emailVerificationTokens.createdAt, new Date(now.getTime() - RESEND_WINDOW_MS).toISOString()),
          ),
        ),
    );
    if (Number(recent?.n ?? 0) >= RESEND_LIMIT) return;
    yield* queueVerificationMailSteps(tx, { userId, email: user.email, baseUrl, now });
  });
}

/**
 * Marks the account's e-mail verified. The token stays usable until it expires, so opening the link
 * twice (or a mail scanner opening it first) still ends verified; it only counts for the address it
 * was sent to.
 */
export function verifyEmail(deps: Pick<AppDeps, 'db' | 'clock'>, token: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  return runnerFor(deps.db).write(function* (tx) {
    const { users, emailVerificationTokens } = tablesOf(tx);
    const found = yield* row(
      tx
        .select({
          userId: emailVerificationTokens.userId,
          email: emailVerificationTokens.email,
          expiresAt: emailVerificationTokens.expiresAt,
          currentEmail: users.email,
        })
        .from(emailVerificationTokens)
        .innerJoin(users, eq(users.id, emailVerificationTokens.userId))
        .where(eq(emailVerificationTokens.id, linkTokenId(token))),
    );
    if (!found || found.expiresAt <= now || found.email !== found.currentEmail) {
      throw badRequest(MESSAGES.verifyLinkInvalid);
    }
    yield* changes(
      tx.update(users).set({ isEmailVerified: true, updatedAt: now }).where(eq(users.id, found.userId)),
    );
  });
}
