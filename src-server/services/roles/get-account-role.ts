import { eq, sql } from 'drizzle-orm';
import type { AccountRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { oncePer } from '../../db/once-per.ts';
import { accountRoles } from '../../db/schema/roles.ts';

/** The account's installation-wide role; 'none' when it has no row. Read by the role middlewares. */
export function getAccountRole(db: Db, userId: string): AccountRole {
  return roleLookup(db).get({ userId })?.role ?? 'none';
}

const roleLookup = oncePer((db: Db) =>
  db
    .select({ role: accountRoles.role })
    .from(accountRoles)
    .where(eq(accountRoles.userId, sql.placeholder('userId')))
    .prepare(),
);
