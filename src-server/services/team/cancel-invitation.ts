import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';

/**
 * Withdraws an invitation still waiting; its link stops working at once. The row stays, expired, so it
 * still counts towards the event's hourly invitation limit.
 */
export async function cancelInvitation(
  db: Db,
  eventId: string,
  invitationId: string,
  now: Date,
): Promise<{ cancelled: true }> {
  const { teamInvitations } = tablesOf(db);
  // One conditional UPDATE: an acceptance at the same moment either wins (nothing to cancel) or loses.
  const changed = await runStatements(db, (d) =>
    changes(
      d
        .update(teamInvitations)
        .set({ expiresAt: now.toISOString() })
        .where(
          and(
            eq(teamInvitations.eventId, eventId),
            eq(teamInvitations.id, invitationId),
            isNull(teamInvitations.acceptedAt),
            gt(teamInvitations.expiresAt, now.toISOString()),
          ),
        ),
    ),
  );
  if (changed !== 1) throw notFound('Invitation not found');
  return { cancelled: true };
}
