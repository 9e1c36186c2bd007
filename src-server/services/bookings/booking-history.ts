import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { changes, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type {
  BookingEventActor,
  BookingEventDetails,
  BookingEventKind,
} from '../../db/schema/booking-history.ts';

/**
 * One change to a booking, as recorded (issue 40). Details by kind (amounts in paise):
 * - confirmed: totalPaise, tickets; discountCode, discountPaise when a code was applied
 * - cancelled: reason ('organiser' | 'buyer' | 'slot_cancelled' | 'event_cancelled'), refundPaise
 * - refund_issued: amountPaise
 * - transfer_offered: toName, toEmail · transfer_cancelled: none · transfer_accepted: fromName, toName
 * - checked_in: persons, gate, offline · check_in_undone: persons, gate, reason
 * - rescheduled: fromStart, toStart
 * - gstin_added: gstin, invoices (how many were re-issued)
 * - attendee_name_corrected: ticketType, position, from, to
 * - add_on_given: name (with its size), quantity, gate
 */
export interface BookingEvent {
  bookingId: string;
  kind: BookingEventKind;
  actor: BookingEventActor;
  /** The signed-in account that did it; null for the app's own jobs. */
  actorUserId: string | null;
  at: Date | string;
  details?: BookingEventDetails;
}

/**
 * Records one change of a booking. Call it inside the write transaction that makes the change, so the
 * history and the booking can never disagree: both commit or neither does. The table refuses UPDATE
 * and DELETE, so what is written here stays as written.
 */
export function recordBookingEvent(tx: DbOrTx, event: BookingEvent): void {
  runSync(recordBookingEventSteps(tx, event));
}

/** `recordBookingEvent` as a step of a transition written once for both engines (ADR 0045). */
export function* recordBookingEventSteps(tx: DbOrTx, event: BookingEvent): Steps<void> {
  const { bookingHistory } = tablesOf(tx);
  yield* changes(
    tx.insert(bookingHistory).values({
      bookingId: event.bookingId,
      kind: event.kind,
      actor: event.actor,
      actorUserId: event.actorUserId,
      at: typeof event.at === 'string' ? event.at : event.at.toISOString(),
      details: event.details ?? null,
    }),
  );
}

/** A recorded change, for the organiser's booking page: who (their name when an account did it) and when. */
export interface BookingHistoryEntry {
  kind: BookingEventKind;
  actor: BookingEventActor;
  actorName: string | null;
  at: string;
  details: BookingEventDetails;
}

/** A booking's history in the order it was written (read in the booking page's one snapshot). */
export function* listBookingHistorySteps(db: DbOrTx, bookingId: string): Steps<BookingHistoryEntry[]> {
  const { bookingHistory, users } = tablesOf(db);
  const entries = yield* rows(
    db
      .select({
        kind: bookingHistory.kind,
        actor: bookingHistory.actor,
        actorName: users.name,
        at: bookingHistory.at,
        details: bookingHistory.details,
      })
      .from(bookingHistory)
      .leftJoin(users, eq(users.id, bookingHistory.actorUserId))
      .where(eq(bookingHistory.bookingId, bookingId))
      .orderBy(asc(bookingHistory.seq)),
  );
  return entries.map((r) => ({ ...r, details: r.details ?? {} }));
}
