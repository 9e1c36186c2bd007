import { eq } from 'drizzle-orm';
import { type AccountRole, ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { accountRoles } from '../../db/schema/roles.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict } from '../../errors.ts';
import { voidInvitationsBeyondAuthority } from '../team/void-invitations.ts';

type Writer = Pick<Db, 'insert' | 'delete'>;

/**
 * Sets an account's installation-wide role, found by e-mail address. Returns the account and the role
 * it had, or null when no account has that address. Used by `npm run user:role` and, with `keepAdmins`
 * (an admin is made or unmade only on the server, by the script), by the admin page.
 */
export function setAccountRoleByEmail(
  db: Db,
  change: { email: string; role: AccountRole; grantedBy: string | null; keepAdmins?: boolean },
  now: Date,
): Promise<{ userId: string; previous: AccountRole } | null> {
  return writeTransaction(db, (tx) => {
    const account = tx
      .select({ id: users.id, role: accountRoles.role })
      .from(users)
      .leftJoin(accountRoles, eq(accountRoles.userId, users.id))
      .where(eq(users.email, change.email.trim().toLowerCase()))
      .get();
    if (!account) return null;
    if (change.keepAdmins && (account.role === 'admin' || change.role === 'admin')) {
      throw conflict(ORGANISER_MESSAGES.adminRoleViaScript);
    }
    writeAccountRole(tx, account.id, change.role, change.grantedBy, now);
    // An admin made organiser or nothing keeps no invitation sent to events that were not theirs.
    voidInvitationsBeyondAuthority(db, tx, account.id, now);
    return { userId: account.id, previous: account.role ?? 'none' };
  });
}

/** Writes the role row (or removes it for 'none'); inside the caller's transaction. */
export function writeAccountRole(
  tx: Writer,
  userId: string,
  role: AccountRole,
  grantedBy: string | null,
  now: Date,
): void {
  if (role === 'none') {
    tx.delete(accountRoles).where(eq(accountRoles.userId, userId)).run();
    return;
  }
  tx.insert(accountRoles)
    .values({ userId, role, grantedBy, grantedAt: now.toISOString() })
    .onConflictDoUpdate({
      target: accountRoles.userId,
      set: { role, grantedBy, grantedAt: now.toISOString() },
    })
    .run();
}
