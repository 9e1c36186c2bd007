import { count, eq } from 'drizzle-orm';
import type { AccountRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { eventTeamMembers } from '../../db/schema/roles.ts';
import { getAccountRole } from '../roles/get-account-role.ts';

/**
 * What the client needs to decide where 'Event' and 'List your Event' lead: the caller's role and how
 * many event teams they are on. Only for choosing a page; every console procedure authorises itself.
 */
export function getConsoleAccess(db: Db, userId: string): { role: AccountRole; teamEvents: number } {
  const teams = db
    .select({ n: count() })
    .from(eventTeamMembers)
    .where(eq(eventTeamMembers.userId, userId))
    .get();
  return { role: getAccountRole(db, userId), teamEvents: teams?.n ?? 0 };
}
