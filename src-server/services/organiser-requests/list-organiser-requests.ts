import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { tablesOf } from '../../db/engine/tables.ts';

const LIMIT = 200;

/**
 * The admin page's list: waiting requests first (oldest first), then the latest decided ones. Awaited
 * on either engine (ADR 0045); the ordering's nulls fall in one group each, so both engines agree.
 */
export function listOrganiserRequests(db: DbOrTx) {
  const { organiserRequests, users } = tablesOf(db);
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
    .limit(LIMIT);
}
