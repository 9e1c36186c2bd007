import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamInvitations } from '../../db/schema/roles.ts';
import { notFound } from '../../errors.ts';

/**
 * Withdraws an invitation still waiting; its link stops working at once. The row stays, expired, so it
 * still counts towards the event's hourly invitation limit.
 */
export function cancelInvitation(
  db: Db,
  eventId: string,
  invitationId: string,
  now: Date,
): { cancelled: true } {
  const result = db
    .update(teamInvitations)
    .set({ expiresAt: now.toISOString() })
    .where(
      and(
        eq(teamInvitations.eventId, eventId),
        eq(teamInvitations.id, invitationId),
        isNull(teamInvitations.acceptedAt),
        gt(teamInvitations.expiresAt, now.toISOString()),
      ),
    )
    .run();
  if (result.changes !== 1) throw notFound('Invitation not found');
  return { cancelled: true };
}
