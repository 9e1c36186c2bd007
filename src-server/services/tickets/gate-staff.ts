import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { DbOrTx } from '../inventory/holds.ts';

export type SetGateStaffResult = 'done' | 'no-account' | 'no-event';

/**
 * Adds an account to one event's team as gate staff (or takes that role away): gate rights are per
 * event (docs/decisions/0022). Someone already on the team keeps a stronger role. Used by
 * `npm run user:staff`, beside the console's invitations. Written once for both engines (ADR 0045).
 */
export function setGateStaff(
  db: Db,
  email: string,
  eventId: string,
  grant: boolean,
  now: Date,
): Promise<SetGateStaffResult> {
  return runnerFor(db).write((tx) => setGateStaffSteps(tx, email, eventId, grant, now));
}

function* setGateStaffSteps(
  db: DbOrTx,
  email: string,
  eventId: string,
  grant: boolean,
  now: Date,
): Steps<SetGateStaffResult> {
  const { eventTeamMembers, events, users } = tablesOf(db);
  const user = yield* row(
    db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase())),
  );
  if (!user) return 'no-account';
  if (!(yield* row(db.select({ id: events.id }).from(events).where(eq(events.id, eventId)))))
    return 'no-event';
  if (grant)
    yield* changes(
      db
        .insert(eventTeamMembers)
        .values({ eventId, userId: user.id, role: 'gate_staff', addedAt: now.toISOString() })
        .onConflictDoNothing(),
    );
  else
    yield* changes(
      db
        .delete(eventTeamMembers)
        .where(
          and(
            eq(eventTeamMembers.eventId, eventId),
            eq(eventTeamMembers.userId, user.id),
            eq(eventTeamMembers.role, 'gate_staff'),
          ),
        ),
    );
  return 'done';
}
