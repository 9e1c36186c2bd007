import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { ORGANISER_MESSAGES, type TeamRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, serialize } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { conflict, tooManyRequests } from '../../errors.ts';
import { newLinkToken } from '../accounts/tokens.ts';
import { enqueueMailSteps } from '../mail/outbox.ts';
import { type RateLimit, rateLimitSteps } from '../rate-limits/rate-limits.ts';
import type { ConsoleEvent } from './load-event-access.ts';
import { invitationMail } from './team-mails.ts';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Invitations one event may send per hour (re-sends and cancelled ones count): a team is not a mailing list. */
export const INVITATIONS_PER_EVENT_PER_HOUR = 30;
export const TOO_MANY_INVITATIONS = 'Too many invitations sent for this event. Please try again in an hour.';
/**
 * Each invitation mails an address the sender typed, with the sender's own text in it (the event's name,
 * their name): one address is not mailed again and again, whoever sends and for whichever event, and
 * one person does not mail many addresses through many events (issue 35).
 */
export const INVITATIONS_PER_ADDRESS: RateLimit = {
  name: 'team-invitation-address',
  max: 5,
  windowMs: 24 * 60 * 60_000,
};
export const INVITATIONS_PER_SENDER: RateLimit = {
  name: 'team-invitation-sender',
  max: 40,
  windowMs: 60 * 60_000,
};
export const TOO_MANY_INVITATIONS_TO_ADDRESS =
  'This address has been sent several invitations recently. Please try again tomorrow.';
export const TOO_MANY_INVITATIONS_FROM_SENDER =
  'You have sent too many invitations in the last hour. Please try again later.';

/**
 * Invites someone, by e-mail address, to one event's team. The address need not have an account yet:
 * the link works after signing up. A new invitation to the same address replaces one still waiting (the
 * old link stops working, so an earlier role cannot be picked instead).
 */
export async function inviteTeamMember(
  db: Db,
  invite: {
    event: ConsoleEvent;
    email: string;
    role: TeamRole;
    invitedBy: { id: string; name: string | null };
  },
  now: Date,
  links: { base: string },
): Promise<{ invitationId: string }> {
  const email = invite.email.trim().toLowerCase();
  const { token, id: tokenHash } = newLinkToken();
  const invitationId = randomUUID();
  await runnerFor(db).write(function* (tx) {
    const { users, eventTeamMembers, teamInvitations } = tablesOf(tx);
    // The event's hourly count, then the new row: one invitation of the event at a time on PostgreSQL.
    yield* serialize(`team-invitations:${invite.event.id}`);
    const account = yield* row(tx.select({ id: users.id }).from(users).where(eq(users.email, email)));
    if (account && account.id === invite.event.ownerId) throw conflict(ORGANISER_MESSAGES.inviteOwner);
    if (account) {
      const member = yield* row(
        tx
          .select({ role: eventTeamMembers.role })
          .from(eventTeamMembers)
          .where(and(eq(eventTeamMembers.eventId, invite.event.id), eq(eventTeamMembers.userId, account.id))),
      );
      if (member) throw conflict(ORGANISER_MESSAGES.alreadyOnTeam);
    }
    const hourAgo = new Date(now.getTime() - 60 * 60 * 1000).toISOString();
    const sent = yield* row(
      tx
        .select({ n: count() })
        .from(teamInvitations)
        .where(and(eq(teamInvitations.eventId, invite.event.id), gt(teamInvitations.createdAt, hourAgo))),
    );
    if (Number(sent?.n ?? 0) >= INVITATIONS_PER_EVENT_PER_HOUR) throw tooManyRequests(TOO_MANY_INVITATIONS);
    // Counted only when the invitation goes out: a refusal here throws, and the transaction writes nothing.
    if (!(yield* rateLimitSteps(tx as WriteTx, [{ limit: INVITATIONS_PER_ADDRESS, key: email }], now))) {
      throw tooManyRequests(TOO_MANY_INVITATIONS_TO_ADDRESS);
    }
    if (
      !(yield* rateLimitSteps(
        tx as WriteTx,
        [{ limit: INVITATIONS_PER_SENDER, key: invite.invitedBy.id }],
        now,
      ))
    ) {
      throw tooManyRequests(TOO_MANY_INVITATIONS_FROM_SENDER);
    }
    // Replaced, not deleted: the rows keep counting towards the hourly limit.
    yield* changes(
      tx
        .update(teamInvitations)
        .set({ expiresAt: now.toISOString() })
        .where(
          and(
            eq(teamInvitations.eventId, invite.event.id),
            eq(teamInvitations.email, email),
            isNull(teamInvitations.acceptedAt),
            gt(teamInvitations.expiresAt, now.toISOString()),
          ),
        ),
    );
    yield* changes(
      tx.insert(teamInvitations).values({
        id: invitationId,
        eventId: invite.event.id,
        email,
        tokenHash,
        role: invite.role,
        invitedBy: invite.invitedBy.id,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
        createdAt: now.toISOString(),
      }),
    );
    yield* enqueueMailSteps(
      tx as WriteTx,
      invitationMail({
        to: email,
        invitationId,
        eventName: invite.event.name,
        role: invite.role,
        inviterName: invite.invitedBy.name ?? 'An organiser',
        url: `${links.base}/organiser/invitations/${token}`,
        scannerUrl: `${links.base}/gate`,
      }),
      now,
    );
  });
  return { invitationId };
}
