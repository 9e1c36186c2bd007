import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { BookingEventActor, BookingEventDetails, BookingEventKind } from '../schema/booking-history.ts';
import { bookings } from './bookings.ts';

/**
 * A booking's order history (issue 40), as ../schema/booking-history.ts. Append-only: the trigger of
 * migrations-pg's booking_history_immutable refuses UPDATE and DELETE.
 */
export const bookingHistory = pgTable(
  'booking_history',
  {
    seq: integer('seq').primaryKey().generatedByDefaultAsIdentity(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    kind: text('kind').$type<BookingEventKind>().notNull(),
    actor: text('actor').$type<BookingEventActor>().notNull(),
    actorUserId: text('actor_user_id'),
    at: text('at').notNull(),
    details: jsonb('details').$type<BookingEventDetails>(),
  },
  (t) => [index('booking_history_booking_idx').on(t.bookingId, t.seq)],
);
