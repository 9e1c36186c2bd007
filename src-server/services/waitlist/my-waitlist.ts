import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { placeInLineSteps } from './place-in-line.ts';

export interface MyWaitlistEntry {
  entryId: string;
  ticketTypeId: string;
  eventId: string;
  eventName: string;
  slotStart: string;
  ticketTypeName: string;
  quantity: number;
  status: 'waiting' | 'offered';
  /** 1 for the next in line; null once offered. */
  place: number | null;
  /** Offered: pay by this instant. */
  offerExpiresAt: string | null;
}

/**
 * My Bookings' "Waiting list": the caller's live entries, oldest first, each with its place or its offer.
 * Written once for both engines (ADR 0045).
 */
export function listMyWaitlist(db: DbOrTx, userId: string): Promise<MyWaitlistEntry[]> {
  return runStatements(db, (d) => listMyWaitlistSteps(d, userId));
}

function* listMyWaitlistSteps(db: DbOrTx, userId: string): Steps<MyWaitlistEntry[]> {
  const { events, slots, ticketTypes, waitlistEntries } = tablesOf(db);
  const found = yield* rows(
    db
      .select({
        entryId: waitlistEntries.id,
        ticketTypeId: waitlistEntries.ticketTypeId,
        createdAt: waitlistEntries.createdAt,
        status: waitlistEntries.status,
        quantity: waitlistEntries.quantity,
        offerExpiresAt: waitlistEntries.offerExpiresAt,
        eventId: events.id,
        eventName: events.name,
        slotStart: slots.startTime,
        ticketTypeName: ticketTypes.name,
      })
      .from(waitlistEntries)
      .innerJoin(events, eq(events.id, waitlistEntries.eventId))
      .innerJoin(slots, eq(slots.id, waitlistEntries.slotId))
      .innerJoin(ticketTypes, eq(ticketTypes.id, waitlistEntries.ticketTypeId))
      .where(
        and(eq(waitlistEntries.userId, userId), sql`${waitlistEntries.status} in ('waiting', 'offered')`),
      )
      .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id)),
  );
  const list: MyWaitlistEntry[] = [];
  for (const entry of found)
    list.push({
      entryId: entry.entryId,
      ticketTypeId: entry.ticketTypeId,
      eventId: entry.eventId,
      eventName: entry.eventName,
      slotStart: entry.slotStart,
      ticketTypeName: entry.ticketTypeName,
      quantity: entry.quantity,
      status: entry.status as 'waiting' | 'offered',
      place: entry.status === 'waiting' ? yield* placeInLineSteps(db, { ...entry, id: entry.entryId }) : null,
      offerExpiresAt: entry.status === 'offered' ? entry.offerExpiresAt : null,
    });
  return list;
}
