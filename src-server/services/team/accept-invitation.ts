import { and, eq, isNull } from 'drizzle-orm';
import { ORGANISER_MESSAGES, type TeamRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { conflict, forbidden } from '../../errors.ts';
import { linkTokenId } from '../accounts/tokens.ts';
import { findInvitationSteps } from './find-invitation.ts';
import { voidInvitationsBeyondAuthoritySteps } from './void-invitations.ts';

/**
 * The signed-in invitee accepts: they join the event's team with the invited role. Only the account
 * with the invited address may accept (a forwarded link does not let someone else in), once; opening
 * the mailed link also proves that address, so it is marked verified.
 */
export function acceptInvitation(
  db: Db,
  token: string,
  user: { id: string; email: string },
  now: Date,
): Promise<{ eventId: string; role: TeamRole }> {
  return runnerFor(db).write(function* (tx) {
    const { users, events, eventTeamMembers, teamInvitations } = tablesOf(tx);
    // One acceptance of a link at a time (two tabs, a double click on PostgreSQL): the second then
    // reads the first's answer, as on SQLite, instead of failing on the claim below.
    yield* serialize(`team-invitation:${linkTokenId(token)}`);
    const invitation = yield* findInvitationSteps(tx, token, now);
    if (invitation.acceptedAt) {
      if (invitation.acceptedBy === user.id) return { eventId: invitation.eventId, role: invitation.role };
      throw conflict(ORGANISER_MESSAGES.invitationUsed);
    }
    if (invitation.email !== user.email.toLowerCase())
      throw forbidden(ORGANISER_MESSAGES.invitationOtherEmail);
    const event = yield* row(
      tx.select({ ownerId: events.ownerId }).from(events).where(eq(events.id, invitation.eventId)),
    );
    if (event?.ownerId === user.id) throw conflict(ORGANISER_MESSAGES.inviteOwner);

    const at = now.toISOString();
    const claimed = yield* changes(
      tx
        .update(teamInvitations)
        .set({ acceptedAt: at, acceptedBy: user.id })
        .where(and(eq(teamInvitations.id, invitation.id), isNull(teamInvitations.acceptedAt))),
    );
    if (claimed !== 1) throw conflict(ORGANISER_MESSAGES.invitationUsed);
    yield* changes(
      tx
        .insert(eventTeamMembers)
        .values({
          eventId: invitation.eventId,
          userId: user.id,
          role: invitation.role,
          invitationId: invitation.id,
          addedAt: at,
        })
        .onConflictDoUpdate({
          target: [eventTeamMembers.eventId, eventTeamMembers.userId],
          set: { role: invitation.role, invitationId: invitation.id, addedAt: at },
        }),
    );
    // A member whose role just changed (co-organiser to gate staff) keeps no invitation they may no
    // longer send.
    yield* voidInvitationsBeyondAuthoritySteps(tx, user.id, now);
    yield* changes(
      tx.update(users).set({ isEmailVerified: true, updatedAt: at }).where(eq(users.id, user.id)),
    );
    return { eventId: invitation.eventId, role: invitation.role };
  });
}
