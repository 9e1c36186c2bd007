import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { bookings } from './bookings.ts';

/** What happened to a booking (services/bookings/booking-history.ts lists each kind with its details). */
export type BookingEventKind =
  | 'confirmed'
  | 'cancelled'
  | 'refund_issued'
  | 'partly_refunded'
  | 'transfer_offered'
  | 'transfer_cancelled'
  | 'transfer_accepted'
  | 'checked_in'
  | 'check_in_undone'
  | 'rescheduled'
  | 'gstin_added'
  | 'attendee_name_corrected'
  | 'add_on_given';

/** Who did it, as the organiser reads it: the buyer (or holder), the organiser's team, gate staff, or the app itself. */
export type BookingEventActor = 'buyer' | 'organiser' | 'gate' | 'system';

/** Small facts of one change (an amount in paise, a reason, persons, the old and new start). */
export type BookingEventDetails = Record<string, string | number | boolean | null>;

/**
 * A booking's order history (issue 40): one row per change, written in the change's own transaction by
 * recordBookingEvent. Append-only: triggers refuse UPDATE and DELETE (migrations, as for invoices), so
 * nobody, the app included, can rewrite what happened. The actor's account id has no foreign key: an
 * account's removal must never need to touch this table.
 */
export const bookingHistory = sqliteTable(
  'booking_history',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    kind: text('kind').$type<BookingEventKind>().notNull(),
    actor: text('actor').$type<BookingEventActor>().notNull(),
    /** The signed-in account that did it; null for the app's own jobs (a slot's cancellation run, a refund settling). */
    actorUserId: text('actor_user_id'),
    /** When it happened (an offline gate scan: when the device scanned). */
    at: text('at').notNull(),
    details: text('details', { mode: 'json' }).$type<BookingEventDetails>(),
  },
  (t) => [index('booking_history_booking_idx').on(t.bookingId, t.seq)],
);
