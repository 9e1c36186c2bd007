import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/**
 * Marks an account's e-mail verified on the operator's word (`npm run user:verify`), found by address.
 * A site on the file mailbox (ALLOW_FILE_MAILBOX=true) sends no verification mail anyone receives, and
 * an unverified buyer cannot book: this is how its operator lets a buyer (or the first admin) in.
 * Returns whether the account was already verified, or null when no account has that address.
 */
export function markEmailVerified(
  db: Db,
  email: string,
  now: Date,
): Promise<{ alreadyVerified: boolean } | null> {
  return runnerFor(db).write(function* (tx) {
    const { users } = tablesOf(tx);
    const account = yield* row(
      tx
        .select({ id: users.id, verified: users.isEmailVerified })
        .from(users)
        .where(eq(users.email, email.trim().toLowerCase())),
    );
    if (!account) return null;
    if (!account.verified) {
      yield* changes(
        tx
          .update(users)
          .set({ isEmailVerified: true, updatedAt: now.toISOString() })
          .where(eq(users.id, account.id)),
      );
    }
    return { alreadyVerified: account.verified };
  });
}
