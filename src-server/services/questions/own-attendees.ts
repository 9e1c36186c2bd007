import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { BOOKING_NOT_FOUND_MESSAGE } from '../bookings/owner-bookings.ts';
import { NAME_CUT_OFF_MS } from './correct-attendee-name.ts';

/** One ticket's attendee name on the holder's ticket page; '' when none was given yet. */
export interface OwnAttendee {
  ticketTypeId: string;
  ticketTypeName: string;
  position: number;
  name: string;
}

/**
 * The holder's attendees of their booking (issue 40): every ticket of a type that asks names (or that
 * has one already), and until when they can be corrected (24 hours before the show). Someone else's
 * booking answers as not found. On either engine (ADR 0045).
 */
export function ownAttendees(
  db: DbOrTx,
  userId: string,
  bookingId: string,
  now: Date,
): Promise<OwnAttendees> {
  return runStatements(db, (d) => ownAttendeesSteps(d, userId, bookingId, now));
}

interface OwnAttendees {
  attendees: OwnAttendee[];
  editableUntil: string;
  editable: boolean;
}

function* ownAttendeesSteps(db: DbOrTx, userId: string, bookingId: string, now: Date): Steps<OwnAttendees> {
  const { bookings, bookingAttendees, attendeeNameSettings } = tablesOf(db);
  const booking = yield* row(
    db
      .select({ status: bookings.status, slotStart: bookings.ticketSlot, lines: bookings.ticketTypes })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId))),
  );
  if (!booking) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
  const names = yield* rows(
    db
      .select({
        ticketTypeId: bookingAttendees.ticketTypeId,
        position: bookingAttendees.position,
        name: bookingAttendees.name,
      })
      .from(bookingAttendees)
      .where(eq(bookingAttendees.bookingId, bookingId)),
  );
  const typeIds = booking.lines.map((l) => l.id);
  const asked =
    typeIds.length === 0
      ? []
      : yield* rows(
          db
            .select({ id: attendeeNameSettings.ticketTypeId })
            .from(attendeeNameSettings)
            .where(inArray(attendeeNameSettings.ticketTypeId, typeIds)),
        );
  const asking = new Set(asked.map((r) => r.id));
  const attendees: OwnAttendee[] = [];
  for (const line of booking.lines) {
    const given = names.filter((n) => n.ticketTypeId === line.id);
    if (!asking.has(line.id) && given.length === 0) continue;
    for (let position = 1; position <= line.quantity; position++) {
      const name = given.find((n) => n.position === position)?.name ?? '';
      attendees.push({ ticketTypeId: line.id, ticketTypeName: line.name, position, name });
    }
  }
  const until = Date.parse(booking.slotStart) - NAME_CUT_OFF_MS;
  return {
    attendees,
    editableUntil: new Date(until).toISOString(),
    editable: booking.status === 'confirmed' && now.getTime() <= until,
  };
}
