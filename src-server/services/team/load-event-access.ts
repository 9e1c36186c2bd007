import { and, eq, sql } from 'drizzle-orm';
import type { AccountRole, EventRole } from '../../../shared/organiser-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';

/** What the event-scoped middleware hands to handlers about the event. */
export interface ConsoleEvent {
  id: string;
  name: string;
  city: string;
  ownerId: string | null;
}

/**
 * The event and the caller's role on it, in one query: its owner, an admin of the installation, or a
 * member of its team (owner first, then admin, then the team role). Null when the event does not
 * exist or the caller has no role on it: both must look the same to the caller.
 */
export function loadEventAccess(
  db: DbOrTx,
  eventId: string,
  userId: string,
  accountRole: AccountRole,
): Promise<EventAccess | null> {
  return runStatements(db, (d) => eventAccessSteps(d, eventId, userId, accountRole));
}

export interface EventAccess {
  event: ConsoleEvent;
  role: EventRole;
}

/** `loadEventAccess` as a step (one statement), for checks made inside a transition. */
export function* eventAccessSteps(
  db: DbOrTx,
  eventId: string,
  userId: string,
  accountRole: AccountRole,
): Steps<EventAccess | null> {
  const found = yield* row(eventAccessLookup(db), { eventId, userId });
  if (!found) return null;
  const { teamRole, ...event } = found;
  if (event.ownerId === userId) return { event, role: 'owner' };
  if (accountRole === 'admin') return { event, role: 'admin' };
  if (teamRole) return { event, role: teamRole };
  return null;
}

/**
 * Built once per database: every event-scoped console and gate call runs it, and building the select
 * each time cost more than running it (issue 21).
 */
const eventAccessLookup = oncePer((db: DbOrTx) => {
  const { events, eventTeamMembers } = tablesOf(db);
  return db
    .select({
      id: events.id,
      name: events.name,
      city: events.city,
      ownerId: events.ownerId,
      teamRole: eventTeamMembers.role,
    })
    .from(events)
    .leftJoin(
      eventTeamMembers,
      and(eq(eventTeamMembers.eventId, events.id), eq(eventTeamMembers.userId, sql.placeholder('userId'))),
    )
    .where(eq(events.id, sql.placeholder('eventId')))
    .prepare();
});
