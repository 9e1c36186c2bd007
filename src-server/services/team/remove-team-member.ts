import { and, eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { voidInvitationsBeyondAuthoritySteps } from './void-invitations.ts';

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
  return runnerFor(db).write(function* (tx) {
    const { eventTeamMembers } = tablesOf(tx);
    const removed = yield* changes(
      tx
        .delete(eventTeamMembers)
        .where(and(eq(eventTeamMembers.eventId, eventId), eq(eventTeamMembers.userId, memberUserId))),
    );
    if (removed !== 1) throw notFound(ORGANISER_MESSAGES.memberNotFound);
    yield* voidInvitationsBeyondAuthoritySteps(tx, memberUserId, now);
    return { removed: true as const };
  });
}
