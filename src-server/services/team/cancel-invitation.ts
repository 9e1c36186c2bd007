import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamInvitations } from '../../db/schema/roles.ts';
import { notFound } from '../../errors.ts';

/** Withdraws an invitation that has not been accepted; its link stops working. */
export function cancelInvitation(db: Db, eventId: string, invitationId: string): { cancelled: true } {
  const result = db
    .delete(teamInvitations)
    .where(
      and(
        eq(teamInvitations.eventId, eventId),
        eq(teamInvitations.id, invitationId),
        isNull(teamInvitations.acceptedAt),
      ),
    )
    .run();
  if (result.changes !== 1) throw notFound('Invitation not found');
  return { cancelled: true };
}
