import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { AttendeeNameMode, QuestionKind, QuestionScope } from '../../../shared/question-schemas.ts';
import { bookings } from './bookings.ts';
import { events, ticketTypes } from './catalog.ts';
import { holds } from './payments.ts';

/**
 * A question the checkout asks for one ticket type (issue 40, ADR 0040), once per booking or once per
 * ticket. Removed questions keep their row (`removed_at`), so answers already given keep their label on
 * the booking page and in the export.
 */
export const ticketQuestions = sqliteTable(
  'ticket_questions',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    kind: text('kind').$type<QuestionKind>().notNull(),
    /** A choice's options, in order; empty for other kinds. */
    options: text('options', { mode: 'json' }).$type<string[]>().notNull(),
    required: integer('required', { mode: 'boolean' }).notNull().default(false),
    scope: text('scope').$type<QuestionScope>().notNull(),
    position: integer('position').notNull().default(0),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    removedAt: text('removed_at'),
  },
  (t) => [
    index('ticket_questions_type_idx').on(t.ticketTypeId),
    index('ticket_questions_event_idx').on(t.eventId),
  ],
);

/** Whether a ticket type's checkout asks each ticket's attendee name (no row: not asked). */
export const attendeeNameSettings = sqliteTable('attendee_name_settings', {
  ticketTypeId: text('ticket_type_id')
    .primaryKey()
    .references(() => ticketTypes.id, { onDelete: 'cascade' }),
  mode: text('mode').$type<AttendeeNameMode>().notNull(),
});

/**
 * One attendee of an order: the `position`-th ticket (1-based) of a ticket type, with the name the
 * buyer gave. Written with the hold at Proceed (so nothing the buyer typed is lost whatever happens
 * next) and given its booking at confirmation. (booking, ticket type, position) is the attendee a
 * per-attendee QR will name later.
 */
export const bookingAttendees = sqliteTable(
  'booking_attendees',
  {
    /** The hold it was given with at Proceed; null when added later to a booking made without one. */
    holdId: text('hold_id').references(() => holds.id),
    bookingId: text('booking_id').references(() => bookings.id),
    ticketTypeId: text('ticket_type_id').notNull(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('booking_attendees_hold_idx').on(t.holdId, t.ticketTypeId, t.position),
    uniqueIndex('booking_attendees_booking_idx').on(t.bookingId, t.ticketTypeId, t.position),
  ],
);

/** One answer: position 0 for a per-booking question, n for the n-th ticket of the question's type. */
export const bookingAnswers = sqliteTable(
  'booking_answers',
  {
    /** The hold it was given with at Proceed; null when added later to a booking made without one. */
    holdId: text('hold_id').references(() => holds.id),
    bookingId: text('booking_id').references(() => bookings.id),
    questionId: text('question_id')
      .notNull()
      .references(() => ticketQuestions.id),
    position: integer('position').notNull(),
    value: text('value').notNull(),
  },
  (t) => [
    uniqueIndex('booking_answers_hold_idx').on(t.holdId, t.questionId, t.position),
    uniqueIndex('booking_answers_booking_idx').on(t.bookingId, t.questionId, t.position),
  ],
);
