import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { eventTeamMembers, teamInvitations } from '../../db/schema/roles.ts';

/** The event's team and the invitations still waiting (not accepted, not expired). */
export function listEventTeam(db: Db, eventId: string, now: Date) {
  const members = db
    .select({
      userId: eventTeamMembers.userId,
      name: users.name,
      email: users.email,
      role: eventTeamMembers.role,
      addedAt: eventTeamMembers.addedAt,
    })
    .from(eventTeamMembers)
    .innerJoin(users, eq(users.id, eventTeamMembers.userId))
    .where(eq(eventTeamMembers.eventId, eventId))
    .orderBy(asc(eventTeamMembers.addedAt))
    .all();
  const invitations = db
    .select({
      id: teamInvitations.id,
      email: teamInvitations.email,
      role: teamInvitations.role,
      expiresAt: teamInvitations.expiresAt,
    })
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.eventId, eventId),
        isNull(teamInvitations.acceptedAt),
        gt(teamInvitations.expiresAt, now.toISOString()),
      ),
    )
    .orderBy(asc(teamInvitations.createdAt))
    .all();
  return { members, invitations };
}
