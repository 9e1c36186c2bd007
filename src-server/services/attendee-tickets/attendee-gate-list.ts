import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { GateListTicket } from '../../../shared/gate-schemas.ts';
import { gateTicketId } from '../../../shared/ticket-token-format.ts';
import type { DbOrTx } from '../../db/client.ts';
import { isPostgres } from '../../db/engine/reads.ts';
import { rows as rowsOf, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/** At most this many booking ids in one IN list (SQLite's bound-parameter limit is far above it). */
const CHUNK = 500;

/**
 * The attendee tickets a gate device's list carries (ADR 0046), each as a ticket of its own under its gate
 * ticket id (`{bookingId}+{typeId}+{position}`), so an offline device admits, refuses and counts each
 * attendee's QR as the server does. `bookingIds` null: every one of the slot's (a full download); else those
 * bookings' (the delta's new and changed bookings) plus the slot's voided ones, so a part cancellation
 * reaches devices at the next sync. `rest` is, per booking that has attendee tickets, what its own QR
 * still admits (persons of its other tickets): the booking's list row carries that, not the booking's total.
 */
export function* attendeeGateListSteps(
  tx: DbOrTx,
  slotId: string,
  bookingIds: readonly string[] | null,
): Steps<{ tickets: GateListTicket[]; rest: Map<string, { allowed: number; admitted: number }> }> {
  const { attendeeTickets, bookingAttendees, bookings } = tablesOf(tx);
  const columns = {
    bookingId: attendeeTickets.bookingId,
    ticketTypeId: attendeeTickets.ticketTypeId,
    position: attendeeTickets.position,
    allowed: attendeeTickets.allowed,
    admitted: attendeeTickets.admitted,
    voidedAt: attendeeTickets.voidedAt,
    name: bookingAttendees.name,
    holder: bookings.userName,
    lines: bookings.ticketTypes,
    status: bookings.status,
    phoneEnd: phoneEndOf(tx, bookings.userPhone),
    generation: bookings.transferCount,
    bookingAllowed: bookings.totalUserAllowed,
    bookingAdmitted: bookings.numberOfUserCheckedIn,
  };
  const query = (where: ReturnType<typeof and>) =>
    tx
      .select(columns)
      .from(attendeeTickets)
      .innerJoin(bookings, eq(bookings.id, attendeeTickets.bookingId))
      .leftJoin(
        bookingAttendees,
        and(
          eq(bookingAttendees.bookingId, attendeeTickets.bookingId),
          eq(bookingAttendees.ticketTypeId, attendeeTickets.ticketTypeId),
          eq(bookingAttendees.position, attendeeTickets.position),
        ),
      )
      .where(where)
      // One order on both engines (the slot's bookings as they were made, each booking's tickets by type
      // and position): a device's offline look-up lists tickets in the order its list came. Without it
      // PostgreSQL answers in heap order, which an admission's UPDATE reshuffles from one sync to the next.
      .orderBy(
        asc(bookings.createdAt),
        asc(bookings.id),
        asc(attendeeTickets.ticketTypeId),
        asc(attendeeTickets.position),
      );
  const rows: Awaited<ReturnType<typeof query>> = [];
  if (bookingIds === null) rows.push(...(yield* rowsOf(query(eq(attendeeTickets.slotId, slotId)))));
  else {
    for (let i = 0; i < bookingIds.length; i += CHUNK)
      rows.push(
        ...(yield* rowsOf(query(inArray(attendeeTickets.bookingId, bookingIds.slice(i, i + CHUNK))))),
      );
    const seen = new Set(bookingIds);
    const voided = yield* rowsOf(
      query(and(eq(attendeeTickets.slotId, slotId), isNotNull(attendeeTickets.voidedAt))),
    );
    for (const r of voided) if (!seen.has(r.bookingId)) rows.push(r);
  }
  const rest = new Map<string, { allowed: number; admitted: number }>();
  const tickets = rows.map((r): GateListTicket => {
    const sum = rest.get(r.bookingId) ?? { allowed: r.bookingAllowed, admitted: r.bookingAdmitted };
    if (!r.voidedAt) sum.allowed -= r.allowed;
    sum.admitted -= r.admitted;
    rest.set(r.bookingId, sum);
    const typeName = r.lines.find((l) => l.id === r.ticketTypeId)?.name ?? '';
    const row: GateListTicket = [
      gateTicketId(r.bookingId, { ticketTypeId: r.ticketTypeId, position: r.position }),
      r.name?.trim() || r.holder,
      typeName,
      r.allowed,
      r.admitted,
      r.status === 'confirmed' && !r.voidedAt ? 0 : 1,
      r.phoneEnd,
    ];
    if (r.generation > 0) row.push(r.generation);
    return row;
  });
  for (const sum of rest.values()) {
    sum.allowed = Math.max(0, sum.allowed);
    sum.admitted = Math.max(0, sum.admitted);
  }
  return { tickets, rest };
}

/**
 * The last four digits of a phone column, for the gate's list: `substr(…, -4)` on SQLite (as it always
 * was, no change on the hot path), `right(…, 4)` on PostgreSQL, whose substr does not count from the end.
 */
export function phoneEndOf(db: object, phone: SQLiteColumn) {
  return isPostgres(db) ? sql<string>`right(${phone}, 4)` : sql<string>`substr(${phone}, -4)`;
}
