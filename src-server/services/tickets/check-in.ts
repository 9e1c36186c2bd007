import { and, eq, sql } from 'drizzle-orm';
import { formatInIndia } from '../../../shared/dates.ts';
import type { Db } from '../../db/client.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { verifyTicketToken } from './ticket-token.ts';

/** What the gate learns about a ticket it admitted or refused for a reason tied to the booking. */
export interface CheckedTicket {
  bookingId: string;
  eventName: string;
  holderName: string;
  ticketTypeName: string;
  ticketCount: number;
  ticketSlot: string;
  numberOfUserCheckedIn: number;
  totalUserAllowed: number;
  /** When someone last walked in on this ticket (UTC ISO), null before the first entry. */
  lastCheckInAt: string | null;
}

export type CheckInResult =
  | { outcome: 'admitted'; message: string; admitted: number; ticket: CheckedTicket }
  | {
      outcome: 'refused';
      reason: 'fully-used' | 'not-enough-entries' | 'cancelled';
      message: string;
      ticket: CheckedTicket;
    }
  /** Forged, altered or unknown: nothing about any booking is revealed. */
  | { outcome: 'refused'; reason: 'invalid'; message: string };

export const INVALID_TICKET_MESSAGE = 'Invalid ticket: this code was not issued by Jalsa';
/** A genuine ticket whose booking the organiser cancelled (and refunded): no entry. */
export const CANCELLED_BOOKING_MESSAGE = 'Cancelled booking';

/**
 * Admits `persons` people on the ticket a QR token names. One conditional UPDATE does the counting, so
 * two gates scanning the same ticket at once can never admit more than `totalUserAllowed` people.
 */
export function checkInTicket(
  db: Db,
  appSecret: string,
  input: { token: string; persons: number },
  now: Date,
): CheckInResult {
  const bookingId = verifyTicketToken(appSecret, input.token.trim());
  if (!bookingId) return invalid();

  const persons = input.persons;
  const changed = db
    .update(bookings)
    .set({
      numberOfUserCheckedIn: sql`${bookings.numberOfUserCheckedIn} + ${persons}`,
      isCheckIn: true,
      lastCheckInAt: now.toISOString(),
    })
    .where(
      and(
        eq(bookings.id, bookingId),
        eq(bookings.status, 'confirmed'),
        sql`${bookings.numberOfUserCheckedIn} + ${persons} <= ${bookings.totalUserAllowed}`,
      ),
    )
    .run().changes;

  const found = readTicket(db, bookingId);
  // A valid signature for a booking that no longer exists is still no entry.
  if (!found) return invalid();
  const { cancelled, ...ticket } = found;
  if (cancelled) {
    return { outcome: 'refused', reason: 'cancelled', message: CANCELLED_BOOKING_MESSAGE, ticket };
  }
  if (changed === 1) {
    return {
      outcome: 'admitted',
      admitted: persons,
      message: `Admitted ${persons} ${persons === 1 ? 'person' : 'people'}: ${ticket.numberOfUserCheckedIn} of ${ticket.totalUserAllowed} checked in`,
      ticket,
    };
  }
  const remaining = ticket.totalUserAllowed - ticket.numberOfUserCheckedIn;
  if (remaining <= 0) {
    return {
      outcome: 'refused',
      reason: 'fully-used',
      message: `Already used: all ${ticket.totalUserAllowed} entries were checked in, the last at ${lastEntry(ticket)} (India time)`,
      ticket,
    };
  }
  return {
    outcome: 'refused',
    reason: 'not-enough-entries',
    message: `Only ${remaining} of ${ticket.totalUserAllowed} entries left on this ticket`,
    ticket,
  };
}

const invalid = (): CheckInResult => ({
  outcome: 'refused',
  reason: 'invalid',
  message: INVALID_TICKET_MESSAGE,
});

const lastEntry = (ticket: CheckedTicket) =>
  ticket.lastCheckInAt ? formatInIndia(ticket.lastCheckInAt, 'dd MMM yyyy, h:mm a') : 'an unknown time';

function readTicket(db: Db, bookingId: string): (CheckedTicket & { cancelled: boolean }) | null {
  const row = db
    .select({
      bookingId: bookings.id,
      eventName: bookings.eventName,
      holderName: bookings.userName,
      ticketType: bookings.ticketType,
      ticketCount: bookings.ticketCount,
      ticketSlot: bookings.ticketSlot,
      numberOfUserCheckedIn: bookings.numberOfUserCheckedIn,
      totalUserAllowed: bookings.totalUserAllowed,
      lastCheckInAt: bookings.lastCheckInAt,
      status: bookings.status,
    })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .get();
  if (!row) return null;
  const { ticketType, status, ...rest } = row;
  return { ...rest, ticketTypeName: ticketType.name, cancelled: status === 'cancelled' };
}
