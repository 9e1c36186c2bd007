import { count, eq } from 'drizzle-orm';
import type { AccountRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { getAccountRole } from '../roles/get-account-role.ts';

/**
 * What the client needs to decide where 'Event' and 'List your Event' lead: the caller's role and how
 * many event teams they are on. Only for choosing a page; every console procedure authorises itself.
 */
export async function getConsoleAccess(
  db: Db,
  userId: string,
): Promise<{ role: AccountRole; teamEvents: number }> {
  const { eventTeamMembers } = tablesOf(db);
  const [teams] = await db
    .select({ n: count() })
    .from(eventTeamMembers)
    .where(eq(eventTeamMembers.userId, userId));
  return { role: await getAccountRole(db, userId), teamEvents: Number(teams?.n ?? 0) };
}
