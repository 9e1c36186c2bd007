import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { BookedTicketType } from '../../../shared/ticket-type.ts';
import { users } from './accounts.ts';
import { events } from './catalog.ts';

/** One line of a booking (spec §3 Booking.ticketTypes). */
export interface BookedTicketLine {
  id: string;
  name: string;
  pricePaise: number;
  quantity: number;
  personAllowedPerTicket: number;
  totalPersons: number;
  /** Paise a discount code took off each ticket, before tax (absent: none). `pricePaise` is the list price. */
  discountPerTicketPaise?: number;
}

/** A booking stays 'confirmed' until the organiser cancels it (or its slot or event): then 'cancelled'. */
export type BookingStatus = 'confirmed' | 'cancelled';

/**
 * A confirmed purchase, with every field of spec §3 Booking. Written once, by the payments service's
 * idempotent confirmation, in the same transaction that turns the hold into sold tickets.
 */
export const bookings = sqliteTable(
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
    ticketType: text('ticket_type', { mode: 'json' }).$type<BookedTicketType>().notNull(),
    ticketTypes: text('ticket_types', { mode: 'json' }).$type<BookedTicketLine[]>().notNull(),
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
    subtotalAmountPaise: integer('subtotal_amount_paise').notNull(),
    feeAmountPaise: integer('fee_amount_paise').notNull(),
    igstAmountPaise: integer('igst_amount_paise').notNull(),
    totalAmountPaise: integer('total_amount_paise').notNull(),
    status: text('status').$type<BookingStatus>().notNull().default('confirmed'),
    isCheckIn: integer('is_check_in', { mode: 'boolean' }).notNull().default(false),
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
    seatsKept: integer('seats_kept', { mode: 'boolean' }).notNull().default(false),
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
    discountPaise: integer('discount_paise').notNull().default(0),
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
    admissionTaxRatePercent: real('admission_tax_rate_percent'),
    admissionExemptionApplies: integer('admission_exemption_applies', { mode: 'boolean' }),
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
    // The gate's ticket list and its deltas: a slot's bookings in insertion (rowid) order.
    index('bookings_slot_idx').on(t.slotId),
    // The event's bookings since a gate device's cursor (its other slots, each sync): SQLite ends every index
    // with the rowid, so this one is ordered by (event_id, rowid) and the cursor is a range, not a scan of
    // the event's whole history.
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
