import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

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
  return writeTransaction(db, (tx) => {
    const account = tx
      .select({ id: users.id, verified: users.isEmailVerified })
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()))
      .get();
    if (!account) return null;
    if (!account.verified) {
      tx.update(users)
        .set({ isEmailVerified: true, updatedAt: now.toISOString() })
        .where(eq(users.id, account.id))
        .run();
    }
    return { alreadyVerified: account.verified };
  });
}
