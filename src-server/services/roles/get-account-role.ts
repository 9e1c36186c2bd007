import { eq, sql } from 'drizzle-orm';
import type { AccountRole } from '../../../shared/organiser-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';

/** The account's installation-wide role; 'none' when it has no row. Read by the role middlewares. */
export function getAccountRole(db: DbOrTx, userId: string): Promise<AccountRole> {
  return runStatements(db, (d) => accountRoleSteps(d, userId));
}

/** Whether the role opens the organiser console: organisers and admins (organiserProcedure and its routes). */
export function runsTheConsole(role: AccountRole): boolean {
  return role === 'organiser' || role === 'admin';
}

/** `getAccountRole` as a step, for a transition that decides on the role it reads (one statement). */
export function* accountRoleSteps(db: DbOrTx, userId: string): Steps<AccountRole> {
  return (yield* row(roleLookup(db), { userId }))?.role ?? 'none';
}

const roleLookup = oncePer((db: DbOrTx) => {
  const { accountRoles } = tablesOf(db);
  return db
    .select({ role: accountRoles.role })
    .from(accountRoles)
    .where(eq(accountRoles.userId, sql.placeholder('userId')))
    .prepare();
});
