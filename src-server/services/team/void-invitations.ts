import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { teamInvitations } from '../../db/schema/roles.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import { accountMayOnEvent } from './require-event-permission.ts';

/**
 * Expires the waiting invitations `inviterId` sent to events they may no longer invite to, inside the
 * caller's write transaction, after a change to their roles (removed from a team, a team role changed,
 * an installation role taken away). Without it a removed co-organiser's invitation would still let an
 * account of their choosing in (issue 35). Accepting checks the sender's right again (find-invitation.ts);
 * this makes the team page stop listing such invitations as waiting. The rows stay, expired, so they
 * keep counting towards the hourly limits.
 *
 * `db` is the connection the transaction runs on: the permission lookups are prepared on it and see the
 * transaction's own changes.
 */
export function voidInvitationsBeyondAuthority(db: Db, tx: WriteTx, inviterId: string, now: Date): void {
  const at = now.toISOString();
  const waiting = tx
    .select({ id: teamInvitations.id, eventId: teamInvitations.eventId })
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.invitedBy, inviterId),
        isNull(teamInvitations.acceptedAt),
        gt(teamInvitations.expiresAt, at),
      ),
    )
    .all();
  const mayInvite = new Map<string, boolean>();
  const dead = waiting.filter((invitation) => {
    let may = mayInvite.get(invitation.eventId);
    if (may === undefined) {
      may = accountMayOnEvent(db, invitation.eventId, inviterId, 'manageTeam');
      mayInvite.set(invitation.eventId, may);
    }
    return !may;
  });
  if (dead.length === 0) return;
  tx.update(teamInvitations)
    .set({ expiresAt: at })
    .where(
      inArray(
        teamInvitations.id,
        dead.map((d) => d.id),
      ),
    )
    .run();
}
