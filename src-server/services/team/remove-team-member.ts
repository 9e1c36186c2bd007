import { and, eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { eventTeamMembers } from '../../db/schema/roles.ts';
import { notFound } from '../../errors.ts';

/** Takes someone off the event's team; their access ends with their next request. */
export function removeTeamMember(db: Db, eventId: string, memberUserId: string): { removed: true } {
  const result = db
    .delete(eventTeamMembers)
    .where(and(eq(eventTeamMembers.eventId, eventId), eq(eventTeamMembers.userId, memberUserId)))
    .run();
  if (result.changes !== 1) throw notFound(ORGANISER_MESSAGES.memberNotFound);
  return { removed: true };
}
