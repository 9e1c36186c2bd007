import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { type AccountRole, TEAM_ROLES } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { eventDates, events, slots } from '../../db/schema/catalog.ts';
import { eventTeamMembers } from '../../db/schema/roles.ts';
import { eventRoleMay } from '../team/event-permissions.ts';

export interface GateEvent {
  id: string;
  name: string;
  city: string;
  slots: { id: string; start: string; end: string }[];
}

/** How many events the gate's picker lists (an admin's installation may hold many; newest first). */
const PICKER_LIMIT = 50;

/** The team roles that run an event's gate (`checkIn`). */
const GATE_ROLES = TEAM_ROLES.filter((role) => eventRoleMay(role, 'checkIn'));

/**
 * The events whose gate the caller may run, with their slots: events they own, events where they are
 * on the team in a role that runs the gate (co-organiser or gate staff, not the box office), and for
 * admins every event.
 */
export function listGateEvents(db: Db, userId: string, accountRole: AccountRole): GateEvent[] {
  const mine =
    accountRole === 'admin'
      ? undefined
      : or(
          eq(events.ownerId, userId),
          inArray(
            events.id,
            db
              .select({ id: eventTeamMembers.eventId })
              .from(eventTeamMembers)
              .where(and(eq(eventTeamMembers.userId, userId), inArray(eventTeamMembers.role, GATE_ROLES))),
          ),
        );
  const list = db
    .select({ id: events.id, name: events.name, city: events.city })
    .from(events)
    .where(mine)
    .orderBy(desc(events.startTime))
    .limit(PICKER_LIMIT)
    .all();
  if (list.length === 0) return [];
  const slotRows = db
    .select({ eventId: eventDates.eventId, id: slots.id, start: slots.startTime, end: slots.endTime })
    .from(slots)
    .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
    .where(
      inArray(
        eventDates.eventId,
        list.map((e) => e.id),
      ),
    )
    .orderBy(asc(slots.startTime))
    .all();
  return list.map((e) => ({
    ...e,
    slots: slotRows.filter((s) => s.eventId === e.id).map(({ eventId: _e, ...s }) => s),
  }));
}

/** A slot of this event, or null (another event's slot is no slot of this one). */
export function findGateSlot(db: Db, eventId: string, slotId: string) {
  return (
    db
      .select({ id: slots.id, start: slots.startTime, end: slots.endTime })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(and(eq(slots.id, slotId), eq(eventDates.eventId, sql`${eventId}`)))
      .get() ?? null
  );
}
