import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { changes, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { accountMayOnEventSteps } from './require-event-permission.ts';

/**
 * Expires the waiting invitations `inviterId` sent to events they may no longer invite to, as steps of
 * the caller's write transaction, after a change to their roles (removed from a team, a team role
 * changed, an installation role taken away). Without it a removed co-organiser's invitation would still
 * let an account of their choosing in (issue 35). Accepting checks the sender's right again
 * (find-invitation.ts); this makes the team page stop listing such invitations as waiting. The rows
 * stay, expired, so they keep counting towards the hourly limits.
 *
 * The permission lookups run on `tx`, so they see the transaction's own changes.
 */
export function* voidInvitationsBeyondAuthoritySteps(tx: DbOrTx, inviterId: string, now: Date): Steps<void> {
  const { teamInvitations } = tablesOf(tx);
  const at = now.toISOString();
  const waiting = yield* rows(
    tx
      .select({ id: teamInvitations.id, eventId: teamInvitations.eventId })
      .from(teamInvitations)
      .where(
        and(
          eq(teamInvitations.invitedBy, inviterId),
          isNull(teamInvitations.acceptedAt),
          gt(teamInvitations.expiresAt, at),
        ),
      ),
  );
  const mayInvite = new Map<string, boolean>();
  const dead: string[] = [];
  for (const invitation of waiting) {
    let may = mayInvite.get(invitation.eventId);
    if (may === undefined) {
      may = yield* accountMayOnEventSteps(tx, invitation.eventId, inviterId, 'manageTeam');
      mayInvite.set(invitation.eventId, may);
    }
    if (!may) dead.push(invitation.id);
  }
  if (dead.length === 0) return;
  yield* changes(tx.update(teamInvitations).set({ expiresAt: at }).where(inArray(teamInvitations.id, dead)));
}
