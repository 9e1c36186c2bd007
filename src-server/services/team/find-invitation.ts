import { eq } from 'drizzle-orm';
import { ORGANISER_MESSAGES } from '../../../shared/organiser-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { linkTokenId } from '../accounts/tokens.ts';
import { accountMayOnEventSteps } from './require-event-permission.ts';

/**
 * The invitation a mailed link names, for the page that offers to accept it: the event's name, the
 * role and the invited address (the token is the credential, as with reset links). Unknown and expired
 * links answer alike, and so does a waiting invitation whose sender may no longer invite to the event
 * (removed from its team, role changed, admin role taken away): it carries the sender's authority, and
 * only while they still hold it (issue 35).
 */
export function* findInvitationSteps(db: DbOrTx, token: string, now: Date) {
  const { teamInvitations, events } = tablesOf(db);
  const found = yield* row(
    db
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
      .where(eq(teamInvitations.tokenHash, linkTokenId(token))),
  );
  if (!found) throw notFound(ORGANISER_MESSAGES.invitationInvalid);
  const { invitedBy, ...invitation } = found;
  if (
    !invitation.acceptedAt &&
    (invitation.expiresAt <= now.toISOString() ||
      !invitedBy ||
      !(yield* accountMayOnEventSteps(db, invitation.eventId, invitedBy, 'manageTeam')))
  ) {
    throw notFound(ORGANISER_MESSAGES.invitationInvalid);
  }
  return invitation;
}

/** What the invitation page shows. */
export async function describeInvitation(db: DbOrTx, token: string, now: Date) {
  const { eventName, email, role, acceptedAt } = await runStatements(db, (d) =>
    findInvitationSteps(d, token, now),
  );
  return { eventName, email, role, accepted: acceptedAt !== null };
}
