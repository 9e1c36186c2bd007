import { eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { events } from '../../db/schema/catalog.ts';
import { teamInvitations } from '../../db/schema/roles.ts';
import { notFound } from '../../errors.ts';
import { linkTokenId } from '../accounts/tokens.ts';

/**
 * The invitation a mailed link names, for the page that offers to accept it: the event's name, the
 * role and the invited address (the token is the credential, as with reset links). Unknown and expired
 * links answer alike.
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
    })
    .from(teamInvitations)
    .innerJoin(events, eq(events.id, teamInvitations.eventId))
    .where(eq(teamInvitations.tokenHash, linkTokenId(token)))
    .get();
  if (!row || (!row.acceptedAt && row.expiresAt <= now.toISOString())) {
    throw notFound(ORGANISER_MESSAGES.invitationInvalid);
  }
  return row;
}

/** What the invitation page shows. */
export function describeInvitation(db: Db, token: string, now: Date) {
  const { eventName, email, role, acceptedAt } = findInvitation(db, token, now);
  return { eventName, email, role, accepted: acceptedAt !== null };
}
