import { sql } from 'drizzle-orm';
import { bigint, boolean, doublePrecision, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { BookedTicketType } from '../../../shared/ticket-type.ts';
import type { BookedTicketLine, BookingStatus } from '../schema/bookings.ts';
import { users } from './accounts.ts';
import { events } from './catalog.ts';

/**
 * A confirmed purchase, with every field of spec §3 Booking. Written once, by the payments service's
 * idempotent confirmation, in the same transaction that turns the hold into sold tickets.
 */
export const bookings = pgTable(
  'bookings',
  {
    id: text('id').primaryKey(),
    /** Gateway payment id; unique, so one payment can never make two bookings. */
    paymentId: text('payment_id').notNull().unique(),
    orderId: text('order_id').notNull(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    slotId: text('slot_id').notNull(),
    /** ISO instant of the chosen date. */
    ticketDate: text('ticket_date').notNull(),
    /** ISO start of the chosen slot. */
    ticketSlot: text('ticket_slot').notNull(),
    ticketSlotEnd: text('ticket_slot_end').notNull(),
    ticketType: jsonb('ticket_type').$type<BookedTicketType>().notNull(),
    ticketTypes: jsonb('ticket_types').$type<BookedTicketLine[]>().notNull(),
    ticketCount: integer('ticket_count').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    userName: text('user_name').notNull(),
    userPhone: text('user_phone').notNull(),
    userEmail: text('user_email').notNull(),
    userState: text('user_state').notNull(),
    userCity: text('user_city'),
    eventName: text('event_name').notNull(),
    eventLocation: text('event_location').notNull(),
    subtotalAmountPaise: bigint('subtotal_amount_paise', { mode: 'number' }).notNull(),
    feeAmountPaise: bigint('fee_amount_paise', { mode: 'number' }).notNull(),
    igstAmountPaise: bigint('igst_amount_paise', { mode: 'number' }).notNull(),
    totalAmountPaise: bigint('total_amount_paise', { mode: 'number' }).notNull(),
    status: text('status').$type<BookingStatus>().notNull().default('confirmed'),
    isCheckIn: boolean('is_check_in').notNull().default(false),
    totalUserAllowed: integer('total_user_allowed').notNull(),
    numberOfUserCheckedIn: integer('number_of_user_checked_in').notNull().default(0),
    lastCheckInAt: text('last_check_in_at'),
    createdAt: text('created_at').notNull(),
    /** When it was cancelled (its seats went back on sale and its refund was queued in that transaction). */
    cancelledAt: text('cancelled_at'),
    /** Why: 'organiser' (one booking), 'slot_cancelled', 'event_cancelled' or 'buyer' (they cancelled it themselves). */
    cancelReason: text('cancel_reason'),
    /**
     * True when the booking was cancelled after people had been admitted with it at the gate (issue 35):
     * its seats stayed off sale (a seat someone walked in on is never sold again). False: they went back
     * to `available`.
     */
    seatsKept: boolean('seats_kept').notNull().default(false),
    /**
     * Transfers accepted so far (ADR 0025). Also the generation of the ticket token: the QR names
     * `{id}~{n}` after the n-th transfer, so every earlier QR is refused at the gate ("Ticket was transferred").
     */
    transferCount: integer('transfer_count').notNull().default(0),
    /**
     * The account that paid, once the booking has moved to someone else (null: `user_id` paid). The GST
     * invoices, their downloads and any buyer cancellation stay with this account (ADR 0025).
     */
    paidByUserId: text('paid_by_user_id').references(() => users.id),
    /**
     * The start the holder had when the organiser moved the show (issue 35): the booking page and ticket say
     * "Moved from …". Kept from the first move, so a second move still names what was bought; null when
     * never moved (or moved back).
     */
    rescheduledFrom: text('rescheduled_from'),
    /**
     * Until when the holder may cancel for a full refund because the show moved to another date, whatever
     * the event's refund policy and whether the tickets are refundable (services/bookings/buyer-cancellation.ts).
     */
    rescheduleRefundUntil: text('reschedule_refund_until'),
    /** The discount code the order was priced with (as the organiser wrote it), null when none (issue 40). */
    discountCode: text('discount_code'),
    /** What the code took off the ticket prices, before tax; `subtotal_amount_paise` is after it. */
    discountPaise: bigint('discount_paise', { mode: 'number' }).notNull().default(0),
    /**
     * PostgreSQL only (null on SQLite, where the gate's cursor is the rowid): the booking's place in its
     * event's gate ticket list, given at commit by the bookings_gate_list_position trigger under the
     * event's gate_positions row, so a device's ticket cursor never passes a booking committed later.
     */
    gateListPosition: integer('gate_list_position'),
    /**
     * The admission GST the checkout quoted (copied from the hold, schema/payments.ts): the admission
     * invoice is computed from it, not from the event's settings of the day, so it adds up to what was
     * paid (ADR 0033). Null on bookings made before it was kept: their invoice reads the event's settings.
     */
    admissionTaxRatePercent: doublePrecision('admission_tax_rate_percent'),
    admissionExemptionApplies: boolean('admission_exemption_applies'),
  },
  (t) => [
    index('bookings_user_idx').on(t.userId, t.createdAt),
    // An event's orders, newest first, paged by (created_at, id): the sales dashboard's panels, the
    // orders table and its CSV export, and the console home's per-event figures (ADR 0020).
    index('bookings_event_created_idx').on(t.eventId, t.createdAt, t.id),
    // An account's tickets for one event: the organiser's per-buyer maximum at Proceed.
    index('bookings_user_event_idx').on(t.userId, t.eventId, t.status),
    // A cancelled slot's confirmed bookings, found batch by batch (services/bookings/cancel-bookings-of-slots.ts).
    index('bookings_slot_status_idx').on(t.slotId, t.status),
    // The gate's ticket list and its deltas: a slot's bookings (in insertion order on SQLite, by rowid).
    index('bookings_slot_idx').on(t.slotId),
    // Kept for parity with SQLite, where every index ends with the rowid and this one orders the gate's
    // cursor by (event_id, rowid). PostgreSQL has no rowid: its gate cursor is gate_list_position, below.
    index('bookings_event_rowid_idx').on(t.eventId),
    // The gate's ticket list and its cursor on PostgreSQL; partial, so SQLite's inserts do not maintain them.
    index('bookings_slot_gate_list_idx')
      .on(t.slotId, t.gateListPosition)
      .where(sql`${t.gateListPosition} is not null`),
    index('bookings_event_gate_list_idx')
      .on(t.eventId, t.gateListPosition)
      .where(sql`${t.gateListPosition} is not null`),
    // A slot's transferred bookings, resent in every gate delta (few, like cancelled ones).
    index('bookings_slot_transferred_idx').on(t.slotId).where(sql`${t.transferCount} > 0`),
    // Bookings an account paid for and gave away, per event: they still count towards its per-buyer maximum.
    index('bookings_paid_by_event_idx')
      .on(t.paidByUserId, t.eventId, t.status)
      .where(sql`${t.paidByUserId} is not null`),
  ],
);
