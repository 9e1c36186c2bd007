import { and, eq, sql } from 'drizzle-orm';
import type { AccountRole, EventRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { oncePer } from '../../db/once-per.ts';
import { events } from '../../db/schema/catalog.ts';
import { eventTeamMembers } from '../../db/schema/roles.ts';

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
  db: Db,
  eventId: string,
  userId: string,
  accountRole: AccountRole,
): { event: ConsoleEvent; role: EventRole } | null {
  const row = eventAccessLookup(db).get({ eventId, userId });
  if (!row) return null;
  const { teamRole, ...event } = row;
  if (event.ownerId === userId) return { event, role: 'owner' };
  if (accountRole === 'admin') return { event, role: 'admin' };
  if (teamRole) return { event, role: teamRole };
  return null;
}

/**
 * Built once per database: every event-scoped console and gate call runs it, and building the select
 * each time cost more than running it (issue 21).
 */
const eventAccessLookup = oncePer((db: Db) =>
  db
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
    .prepare(),
);
