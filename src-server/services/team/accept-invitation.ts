import { and, eq, isNull } from 'drizzle-orm';
import { ORGANISER_MESSAGES, type TeamRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { events } from '../../db/schema/catalog.ts';
import { eventTeamMembers, teamInvitations } from '../../db/schema/roles.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { conflict, forbidden } from '../../errors.ts';
import { findInvitation } from './find-invitation.ts';
import { voidInvitationsBeyondAuthority } from './void-invitations.ts';

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
  return writeTransaction(db, (tx) => {
    const invitation = findInvitation(db, token, now);
    if (invitation.acceptedAt) {
      if (invitation.acceptedBy === user.id) return { eventId: invitation.eventId, role: invitation.role };
      throw conflict(ORGANISER_MESSAGES.invitationUsed);
    }
    if (invitation.email !== user.email.toLowerCase())
      throw forbidden(ORGANISER_MESSAGES.invitationOtherEmail);
    const event = tx
      .select({ ownerId: events.ownerId })
      .from(events)
      .where(eq(events.id, invitation.eventId))
      .get();
    if (event?.ownerId === user.id) throw conflict(ORGANISER_MESSAGES.inviteOwner);

    const at = now.toISOString();
    const claimed = tx
      .update(teamInvitations)
      .set({ acceptedAt: at, acceptedBy: user.id })
      .where(and(eq(teamInvitations.id, invitation.id), isNull(teamInvitations.acceptedAt)))
      .run();
    if (claimed.changes !== 1) throw conflict(ORGANISER_MESSAGES.invitationUsed);
    tx.insert(eventTeamMembers)
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
      })
      .run();
    // A member whose role just changed (co-organiser to gate staff) keeps no invitation they may no
    // longer send.
    voidInvitationsBeyondAuthority(db, tx, user.id, now);
    tx.update(users).set({ isEmailVerified: true, updatedAt: at }).where(eq(users.id, user.id)).run();
    return { eventId: invitation.eventId, role: invitation.role };
  });
}
