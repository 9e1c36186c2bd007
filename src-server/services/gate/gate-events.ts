import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { type AccountRole, TEAM_ROLES } from '../../../shared/organiser-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
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
 * admins every event. Written once for both engines (ADR 0045).
 */
export function listGateEvents(db: DbOrTx, userId: string, accountRole: AccountRole): Promise<GateEvent[]> {
  return runStatements(db, (d) => listGateEventsSteps(d, userId, accountRole));
}

function* listGateEventsSteps(db: DbOrTx, userId: string, accountRole: AccountRole): Steps<GateEvent[]> {
  const { eventDates, eventTeamMembers, events, slots } = tablesOf(db);
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
  const list = yield* rows(
    db
      .select({ id: events.id, name: events.name, city: events.city })
      .from(events)
      .where(mine)
      // The id breaks ties, so both engines list events starting at the same time alike.
      .orderBy(desc(events.startTime), asc(events.id))
      .limit(PICKER_LIMIT),
  );
  if (list.length === 0) return [];
  const slotRows = yield* rows(
    db
      .select({ eventId: eventDates.eventId, id: slots.id, start: slots.startTime, end: slots.endTime })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(
        inArray(
          eventDates.eventId,
          list.map((e) => e.id),
        ),
      )
      .orderBy(asc(slots.startTime), asc(slots.id)),
  );
  return list.map((e) => ({
    ...e,
    slots: slotRows.filter((s) => s.eventId === e.id).map(({ eventId: _e, ...s }) => s),
  }));
}

export type GateSlot = { id: string; start: string; end: string };

/** A slot of this event, or null (another event's slot is no slot of this one). */
export function findGateSlot(db: DbOrTx, eventId: string, slotId: string): Promise<GateSlot | null> {
  return runStatements(db, (d) => findGateSlotSteps(d, eventId, slotId));
}

/** `findGateSlot` as a step, for a read that runs inside another (the gate's sync). */
export function* findGateSlotSteps(db: DbOrTx, eventId: string, slotId: string): Steps<GateSlot | null> {
  const { eventDates, slots } = tablesOf(db);
  return (
    (yield* row(
      db
        .select({ id: slots.id, start: slots.startTime, end: slots.endTime })
        .from(slots)
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .where(and(eq(slots.id, slotId), eq(eventDates.eventId, sql`${eventId}`))),
    )) ?? null
  );
}
