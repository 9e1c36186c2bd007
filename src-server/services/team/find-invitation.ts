import { eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/catalog.ts';
import { teamInvitations } from '../../db/schema/roles.ts';
import { notFound } from '../../errors.ts';
import { linkTokenId } from '../accounts/tokens.ts';
import { accountMayOnEvent } from './require-event-permission.ts';

/**
 * The invitation a mailed link names, for the page that offers to accept it: the event's name, the
 * role and the invited address (the token is the credential, as with reset links). Unknown and expired
 * links answer alike, and so does a waiting invitation whose sender may no longer invite to the event
 * (removed from its team, role changed, admin role taken away): it carries the sender's authority, and
 * only while they still hold it (issue 35).
 */
export function findInvitation(db: Db, token: string, now: Date) {
  const row = db
    .select({
      id: teamInvitations.id,
      eventId: teamInvitations.eventId,
      eventName: events.name,
      email: teamInvitations.email,
      role: teamInvitations.role,
      expiresAt: teamInvitations.expiresAt,
      acceptedAt: teamInvitations.acceptedAt,
      acceptedBy: teamInvitations.acceptedBy,
      invitedBy: teamInvitations.invitedBy,
    })
    .from(teamInvitations)
    .innerJoin(events, eq(events.id, teamInvitations.eventId))
    .where(eq(teamInvitations.tokenHash, linkTokenId(token)))
    .get();
  if (!row) throw notFound(ORGANISER_MESSAGES.invitationInvalid);
  const { invitedBy, ...invitation } = row;
  if (
    !invitation.acceptedAt &&
    (invitation.expiresAt <= now.toISOString() ||
      !invitedBy ||
      !accountMayOnEvent(db, invitation.eventId, invitedBy, 'manageTeam'))
  ) {
    throw notFound(ORGANISER_MESSAGES.invitationInvalid);
  }
  return invitation;
}

/** What the invitation page shows. */
export function describeInvitation(db: Db, token: string, now: Date) {
  const { eventName, email, role, acceptedAt } = findInvitation(db, token, now);
  return { eventName, email, role, accepted: acceptedAt !== null };
}
