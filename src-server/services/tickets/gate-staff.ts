import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/accounts.ts';
import { events } from '../../db/schema/catalog.ts';
import { eventTeamMembers } from '../../db/schema/roles.ts';

export type SetGateStaffResult = 'done' | 'no-account' | 'no-event';

/**
 * Adds an account to one event's team as gate staff (or takes that role away): gate rights are per
 * event (docs/decisions/0022). Someone already on the team keeps a stronger role. Used by
 * `npm run user:staff`, beside the console's invitations.
 */
export function setGateStaff(
  db: Db,
  email: string,
  eventId: string,
  grant: boolean,
  now: Date,
): SetGateStaffResult {
  const user = db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
    .get();
  if (!user) return 'no-account';
  if (!db.select({ id: events.id }).from(events).where(eq(events.id, eventId)).get()) return 'no-event';
  if (grant)
    db.insert(eventTeamMembers)
      .values({ eventId, userId: user.id, role: 'gate_staff', addedAt: now.toISOString() })
      .onConflictDoNothing()
      .run();
  else
    db.delete(eventTeamMembers)
      .where(
        and(
          eq(eventTeamMembers.eventId, eventId),
          eq(eventTeamMembers.userId, user.id),
          eq(eventTeamMembers.role, 'gate_staff'),
        ),
      )
      .run();
  return 'done';
}
