import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/** The event's team and the invitations still waiting (not accepted, not expired). */
export function listEventTeam(db: DbOrTx, eventId: string, now: Date) {
  return runStatements(db, function* (db) {
    const { users, eventTeamMembers, teamInvitations } = tablesOf(db);
    const members = yield* rows(
      db
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
        .orderBy(asc(eventTeamMembers.addedAt)),
    );
    const invitations = yield* rows(
      db
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
        .orderBy(asc(teamInvitations.createdAt)),
    );
    return { members, invitations };
  });
}
