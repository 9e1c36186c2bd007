import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { organiserRequests } from '../../db/schema/roles.ts';

/** The caller's latest request, for the form page to say where it stands; null if none. */
export function getMyOrganiserRequest(db: Db, userId: string) {
  return (
    db
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
      .limit(1)
      .get() ?? null
  );
}
