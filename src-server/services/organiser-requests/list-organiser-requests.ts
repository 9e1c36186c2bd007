import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { organiserRequests } from '../../db/schema/roles.ts';

const LIMIT = 200;

/** The admin page's list: waiting requests first (oldest first), then the latest decided ones. */
export function listOrganiserRequests(db: Db) {
  return db
    .select({
      id: organiserRequests.id,
      organisationName: organiserRequests.organisationName,
      contactPhone: organiserRequests.contactPhone,
      city: organiserRequests.city,
      whatTheyRun: organiserRequests.whatTheyRun,
      gstin: organiserRequests.gstin,
      status: organiserRequests.status,
      createdAt: organiserRequests.createdAt,
      decidedAt: organiserRequests.decidedAt,
      requesterName: users.name,
      requesterEmail: users.email,
    })
    .from(organiserRequests)
    .innerJoin(users, eq(users.id, organiserRequests.userId))
    .orderBy(
      sql`case when ${organiserRequests.status} = 'pending' then 0 else 1 end`,
      sql`case when ${organiserRequests.status} = 'pending' then ${organiserRequests.createdAt} end`,
      desc(organiserRequests.decidedAt),
    )
    .limit(LIMIT)
    .all();
}
