import { eq } from 'drizzle-orm';
import { type AccountRole, ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict } from '../../errors.ts';
import { voidInvitationsBeyondAuthoritySteps } from '../team/void-invitations.ts';

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
  return runnerFor(db).write(function* (tx) {
    const { users, accountRoles } = tablesOf(tx);
    const account = yield* row(
      tx
        .select({ id: users.id, role: accountRoles.role })
        .from(users)
        .leftJoin(accountRoles, eq(accountRoles.userId, users.id))
        .where(eq(users.email, change.email.trim().toLowerCase())),
    );
    if (!account) return null;
    if (change.keepAdmins && (account.role === 'admin' || change.role === 'admin')) {
      throw conflict(ORGANISER_MESSAGES.adminRoleViaScript);
    }
    yield* writeAccountRoleSteps(tx, account.id, change.role, change.grantedBy, now);
    // An admin made organiser or nothing keeps no invitation sent to events that were not theirs.
    yield* voidInvitationsBeyondAuthoritySteps(tx, account.id, now);
    return { userId: account.id, previous: account.role ?? 'none' };
  });
}

/** Writes the role row on SQLite at once (test helpers, and transactions not yet written as steps). */
export function writeAccountRole(
  tx: DbOrTx,
  userId: string,
  role: AccountRole,
  grantedBy: string | null,
  now: Date,
): void {
  runSync(writeAccountRoleSteps(tx, userId, role, grantedBy, now));
}

/** Writes the role row (or removes it for 'none'); a step of the caller's transaction. */
export function* writeAccountRoleSteps(
  tx: DbOrTx,
  userId: string,
  role: AccountRole,
  grantedBy: string | null,
  now: Date,
): Steps<void> {
  const { accountRoles } = tablesOf(tx);
  if (role === 'none') {
    yield* changes(tx.delete(accountRoles).where(eq(accountRoles.userId, userId)));
    return;
  }
  yield* changes(
    tx
      .insert(accountRoles)
      .values({ userId, role, grantedBy, grantedAt: now.toISOString() })
      .onConflictDoUpdate({
        target: accountRoles.userId,
        set: { role, grantedBy, grantedAt: now.toISOString() },
      }),
  );
}
