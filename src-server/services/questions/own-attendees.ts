import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { attendeeNameSettings, bookingAttendees } from '../../db/schema/questions.ts';
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
 * booking answers as not found.
 */
export function ownAttendees(
  db: Db,
  userId: string,
  bookingId: string,
  now: Date,
): { attendees: OwnAttendee[]; editableUntil: string; editable: boolean } {
  const booking = db
    .select({ status: bookings.status, slotStart: bookings.ticketSlot, lines: bookings.ticketTypes })
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)))
    .get();
  if (!booking) throw notFound(BOOKING_NOT_FOUND_MESSAGE);
  const names = db
    .select({
      ticketTypeId: bookingAttendees.ticketTypeId,
      position: bookingAttendees.position,
      name: bookingAttendees.name,
    })
    .from(bookingAttendees)
    .where(eq(bookingAttendees.bookingId, bookingId))
    .all();
  const typeIds = booking.lines.map((l) => l.id);
  const asking = new Set(
    typeIds.length === 0
      ? []
      : db
          .select({ id: attendeeNameSettings.ticketTypeId })
          .from(attendeeNameSettings)
          .where(inArray(attendeeNameSettings.ticketTypeId, typeIds))
          .all()
          .map((r) => r.id),
  );
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
