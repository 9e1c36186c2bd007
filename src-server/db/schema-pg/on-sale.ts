import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TicketDetails } from '../../../shared/checkout-schemas.ts';
import type { WaitlistStatus } from '../schema/on-sale.ts';
import { users } from './accounts.ts';
import { events, slots, ticketTypes } from './catalog.ts';
import { holds } from './payments.ts';

/**
 * An event's waiting room (issue 19): while `enabled`, buyers wait for `opensAt`, are drawn a random
 * place if they arrived before it (arrival order after), and Proceed needs an admission pass. One row
 * per event that ever had one; the queue's live state is `admittedThrough`, raised by the admitter.
 */
export const waitingRooms = pgTable('waiting_rooms', {
  eventId: text('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  /** The on-sale instant (UTC ISO-8601): the draw happens then, and admission starts. */
  opensAt: text('opens_at').notNull(),
  /** Visitors admitted per minute; null means the default derived from the measured hold throughput. */
  admitPerMinute: integer('admit_per_minute'),
  /** When the pre-opening arrivals were shuffled; null until opening. */
  drawnAt: text('drawn_at'),
  /** Every visitor with a position up to this one has been admitted. */
  admittedThrough: integer('admitted_through').notNull().default(0),
  updatedAt: text('updated_at').notNull(),
});

/**
 * One account's place in an event's waiting room: one row per account and event, so a second tab or
 * device shares the place. `id` is the arrival order; `position` is the place in the queue (a random
 * draw for arrivals before opening, then arrival order), null until drawn.
 */
export const waitingRoomVisitors = pgTable(
  'waiting_room_visitors',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    arrivedAt: text('arrived_at').notNull(),
    position: integer('position'),
    admittedAt: text('admitted_at'),
  },
  (t) => [
    uniqueIndex('waiting_room_visitors_account_idx').on(t.eventId, t.userId),
    index('waiting_room_visitors_position_idx').on(t.eventId, t.position),
  ],
);

/**
 * The waiting list of a sold-out ticket type (issue 19): one live entry per account and slot. When
 * seats come back, the next entries in order get an offer: an active hold (`offerHoldId`, in the same
 * inventory as every other hold) that expires at `offerExpiresAt`; an unused offer passes on.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    slotId: text('slot_id')
      .notNull()
      .references(() => slots.id, { onDelete: 'cascade' }),
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    quantity: integer('quantity').notNull(),
    /** The contact details the offer's hold (and so the booking) carries. */
    details: jsonb('details').$type<TicketDetails>().notNull(),
    status: text('status').$type<WaitlistStatus>().notNull().default('waiting'),
    offerHoldId: text('offer_hold_id').references(() => holds.id),
    offeredAt: text('offered_at'),
    offerExpiresAt: text('offer_expires_at'),
    createdAt: text('created_at').notNull(),
    endedAt: text('ended_at'),
  },
  (t) => [
    // One live entry per account and slot.
    uniqueIndex('waitlist_entries_live_idx')
      .on(t.userId, t.slotId)
      .where(sql`status in ('waiting', 'offered')`),
    // The next in line for a ticket type, and the list length the organiser sees.
    index('waitlist_entries_queue_idx').on(t.ticketTypeId, t.status, t.createdAt),
    // The entry behind an offer hold, when the hold ends.
    index('waitlist_entries_offer_hold_idx').on(t.offerHoldId).where(sql`offer_hold_id is not null`),
    // My Bookings: an account's entries.
    index('waitlist_entries_user_idx').on(t.userId, t.status),
  ],
);
