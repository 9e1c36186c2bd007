import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/** The caller's latest request, for the form page to say where it stands; null if none (either engine). */
export async function getMyOrganiserRequest(db: DbOrTx, userId: string) {
  const { organiserRequests } = tablesOf(db);
  const [latest] = await db
    .select({
      id: organiserRequests.id,
      organisationName: organiserRequests.organisationName,
      status: organiserRequests.status,
      createdAt: organiserRequests.createdAt,
      decidedAt: organiserRequests.decidedAt,
    })
    .from(organiserRequests)
    .where(eq(organiserRequests.userId, userId))
    .orderBy(desc(organiserRequests.createdAt))
    .limit(1);
  return latest ?? null;
}
