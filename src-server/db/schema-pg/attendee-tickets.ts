import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { bookings } from './bookings.ts';

/**
 * One ticket of a booking that has its own QR (issue 40, ADR 0046): the `position`-th (1-based) ticket of a
 * ticket type set to "one ticket per attendee", written with the booking at confirmation. It counts its own
 * check-ins (the booking's count still holds every person, for the dashboards); a part cancellation voids
 * it (`voided_at`), and its QR is refused from then on. A booking without rows has only its booking QR.
 */
export const attendeeTickets = pgTable(
  'attendee_tickets',
  {
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    /** The booking's slot (a booking never changes slot): the gate's full list reads a slot's rows. */
    slotId: text('slot_id').notNull(),
    ticketTypeId: text('ticket_type_id').notNull(),
    position: integer('position').notNull(),
    /** People this ticket admits (the type's persons per ticket). */
    allowed: integer('allowed').notNull(),
    admitted: integer('admitted').notNull().default(0),
    lastCheckInAt: text('last_check_in_at'),
    voidedAt: text('voided_at'),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.ticketTypeId, t.position] }),
    index('attendee_tickets_slot_idx').on(t.slotId),
    // Voided tickets are resent in every gate delta (few, like cancelled bookings).
    index('attendee_tickets_voided_idx').on(t.slotId).where(sql`${t.voidedAt} is not null`),
  ],
);
