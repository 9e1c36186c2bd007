import { and, eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { eventTeamMembers } from '../../db/schema/roles.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { notFound } from '../../errors.ts';
import { voidInvitationsBeyondAuthority } from './void-invitations.ts';

/**
 * Takes someone off the event's team; their access ends with their next request, and so do the
 * invitations they sent to it that are still waiting (issue 35: a removed co-organiser keeps no way back in).
 */
export function removeTeamMember(
  db: Db,
  eventId: string,
  memberUserId: string,
  now: Date,
): Promise<{ removed: true }> {
  return writeTransaction(db, (tx) => {
    const result = tx
      .delete(eventTeamMembers)
      .where(and(eq(eventTeamMembers.eventId, eventId), eq(eventTeamMembers.userId, memberUserId)))
      .run();
    if (result.changes !== 1) throw notFound(ORGANISER_MESSAGES.memberNotFound);
    voidInvitationsBeyondAuthority(db, tx, memberUserId, now);
    return { removed: true as const };
  });
}
