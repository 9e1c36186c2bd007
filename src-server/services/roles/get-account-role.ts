import { eq, sql } from 'drizzle-orm';
import type { AccountRole } from '../../../shared/organiser-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { accountRoles } from '../../db/schema/roles.ts';

/** The account's installation-wide role; 'none' when it has no row. Read by the role middlewares. */
export function getAccountRole(db: Db, userId: string): AccountRole {
  return roleLookup(db).get({ userId })?.role ?? 'none';
}

/**
 * `getAccountRole` as a step on either engine (ADR 0045), for a transaction that must see a revocation
 * committed before it began (publishing). Built per call: the prepared lookup is SQLite's.
 */
export function* accountRoleSteps(tx: DbOrTx, userId: string): Steps<AccountRole> {
  const { accountRoles } = tablesOf(tx);
  const found = yield* row(
    tx.select({ role: accountRoles.role }).from(accountRoles).where(eq(accountRoles.userId, userId)),
  );
  return found?.role ?? 'none';
}

const roleLookup = oncePer((db: Db) =>
  db
    .select({ role: accountRoles.role })
    .from(accountRoles)
    .where(eq(accountRoles.userId, sql.placeholder('userId')))
    .prepare(),
);
