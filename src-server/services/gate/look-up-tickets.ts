import { and, eq, exists, or, sql } from 'drizzle-orm';
import { mobileDigitsSearchedBy } from '../../../shared/indian-mobile.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { escapeLike, likeEscapedOn } from '../../db/like.ts';
import {
  type LookedUpAttendeeTicket,
  lookUpAttendeeTicketsSteps,
} from '../attendee-tickets/look-up-attendee-tickets.ts';
import { answersOfBookingsSteps, type BookingAnswers } from '../questions/booking-answers.ts';

export interface LookedUpTicket {
  bookingId: string;
  holderName: string;
  /** The last four digits only: enough to confirm with the person at the gate. */
  phoneEnd: string;
  typeName: string;
  allowed: number;
  admitted: number;
  cancelled: boolean;
  /** Attendee names and answers given at checkout (issue 40), so staff can check who is who. */
  answers: BookingAnswers;
  /**
   * Each attendee's own ticket where the booking has them (ADR 0046), to admit the person at the gate by
   * their ticket; `allowed` and `admitted` above are then what the booking's own QR still admits.
   */
  attendeeTickets: LookedUpAttendeeTicket[];
}

/**
 * Manual look-up at the gate for a buyer whose phone is dead: this slot's bookings by booking id, holder
 * or attendee name, or mobile number. Reads only the slot's bookings (the slot index), at most 20, each with its
 * attendees' own tickets where it has them. Written once for both engines (ADR 0045).
 */
export function lookUpTickets(db: DbOrTx, slotId: string, query: string): Promise<LookedUpTicket[]> {
  return runStatements(db, (d) => lookUpTicketsSteps(d, slotId, query));
}

function* lookUpTicketsSteps(db: DbOrTx, slotId: string, query: string): Steps<LookedUpTicket[]> {
  const { bookingAttendees, bookings } = tablesOf(db);
  const q = query.trim();
  const digits = mobileDigitsSearchedBy(q);
  const escaped = escapeLike(q);
  const match = or(
    likeEscapedOn(db, bookings.id, `${escaped}%`),
    likeEscapedOn(db, bookings.userName, `%${escaped}%`),
    // An attendee's own name (issue 40): the person at the gate is not always the one who booked.
    exists(
      db
        .select({ one: sql`1` })
        .from(bookingAttendees)
        .where(
          and(
            eq(bookingAttendees.bookingId, bookings.id),
            likeEscapedOn(db, bookingAttendees.name, `%${escaped}%`),
          ),
        ),
    ),
    ...(digits.length >= 4 ? [likeEscapedOn(db, bookings.userPhone, `%${digits}%`)] : []),
  );
  const found = (yield* rows(
    db
      .select({
        bookingId: bookings.id,
        holderName: bookings.userName,
        phone: bookings.userPhone,
        ticketType: bookings.ticketType,
        lines: bookings.ticketTypes,
        allowed: bookings.totalUserAllowed,
        admitted: bookings.numberOfUserCheckedIn,
        status: bookings.status,
      })
      .from(bookings)
      .where(and(eq(bookings.slotId, slotId), match))
      .limit(20),
  )).map(({ phone, ticketType, status, ...r }) => ({
    ...r,
    phoneEnd: phone.slice(-4),
    typeName: ticketType.name,
    cancelled: status !== 'confirmed',
  }));
  const answers = yield* answersOfBookingsSteps(
    db,
    found.map((t) => t.bookingId),
  );
  const own = yield* lookUpAttendeeTicketsSteps(db, found);
  return found.map(({ lines, ...t }) => ({
    ...t,
    ...own.get(t.bookingId)?.rest,
    answers: answers.get(t.bookingId)!,
    attendeeTickets: own.get(t.bookingId)?.tickets ?? [],
  }));
}
