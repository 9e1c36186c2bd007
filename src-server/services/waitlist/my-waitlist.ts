import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { events, slots, ticketTypes } from '../../db/schema/catalog.ts';
import { waitlistEntries } from '../../db/schema/on-sale.ts';
import { placeInLine } from './place-in-line.ts';

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

/** My Bookings' "Waiting list": the caller's live entries, oldest first, each with its place or its offer. */
export function listMyWaitlist(db: Db, userId: string): MyWaitlistEntry[] {
  const rows = db
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
    .where(and(eq(waitlistEntries.userId, userId), sql`${waitlistEntries.status} in ('waiting', 'offered')`))
    .orderBy(asc(waitlistEntries.createdAt))
    .all();
  return rows.map((row) => ({
    entryId: row.entryId,
    ticketTypeId: row.ticketTypeId,
    eventId: row.eventId,
    eventName: row.eventName,
    slotStart: row.slotStart,
    ticketTypeName: row.ticketTypeName,
    quantity: row.quantity,
    status: row.status as 'waiting' | 'offered',
    place: row.status === 'waiting' ? placeInLine(db, { ...row, id: row.entryId }) : null,
    offerExpiresAt: row.status === 'offered' ? row.offerExpiresAt : null,
  }));
}
