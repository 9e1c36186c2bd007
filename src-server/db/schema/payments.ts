import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { TicketDetails } from '../../../shared/checkout-schemas.ts';
import { users } from './accounts.ts';
import { eventDates, events, slots, ticketTypes } from './catalog.ts';

export type HoldStatus = 'active' | 'converted' | 'released';

/**
 * Seats taken from `ticket_types.available_tickets` at Proceed, before any payment (services/inventory).
 * A hold ends converted (its booking exists) or released (its seats were added back in the same
 * transaction). Per ticket type: available + active holds + sold = total.
 */
export const holds = sqliteTable(
  'holds',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    eventDateId: text('event_date_id')
      .notNull()
      .references(() => eventDates.id),
    slotId: text('slot_id')
      .notNull()
      .references(() => slots.id),
    status: text('status').$type<HoldStatus>().notNull().default('active'),
    /** The buyer's contact details from the checkout, copied onto the booking. */
    details: text('details', { mode: 'json' }).$type<TicketDetails>().notNull(),
    userCity: text('user_city'),
    /** The amounts charged, computed once from the held lines (shared/pricing.ts). */
    subtotalPaise: integer('subtotal_paise').notNull(),
    feePaise: integer('fee_paise').notNull(),
    igstPaise: integer('igst_paise').notNull(),
    totalPaise: integer('total_paise').notNull(),
    /** End of the payment session the buyer sees as a countdown (300 000 ms after Proceed). */
    sessionExpiresAt: text('session_expires_at').notNull(),
    /** The session plus a short grace for verification; the sweeper releases the hold after this. */
    expiresAt: text('expires_at').notNull(),
    releaseReason: text('release_reason'),
    /** Seats in the hold (the sum of its items), so the hoarding caps count without reading the items. */
    seats: integer('seats').notNull().default(0),
    /** The client address Proceed came from (the per-address cap); null for holds made before it was kept. */
    clientAddress: text('client_address'),
    createdAt: text('created_at').notNull(),
    endedAt: text('ended_at'),
    /**
     * The discount code the hold was priced with (issue 40), null for none: its use is kept on the hold's
     * own row, so a Proceed with a code writes no second table (docs/benchmarks.md, issue 40's last bar).
     * No foreign key: the id is the row the same transaction took the use from (services/discounts), and
     * schema/discounts.ts already imports this file.
     */
    discountCodeId: text('discount_code_id'),
    /** What the code took off the whole order, before tax; null without a code. */
    discountPaise: integer('discount_paise'),
    /** When the code's use was given back (hold released unpaid, booking cancelled); null while it counts. */
    discountReturnedAt: text('discount_returned_at'),
    /**
     * The admission GST the hold was priced with (checkout/checkout-taxes.ts), copied onto the booking so
     * its invoice adds up to what was paid even if the organiser changes the rate or the kind meanwhile
     * (ADR 0033): the rate added on top of the prices (null: none added, or a hold made before it was kept)
     * and whether entry 81's exemption applied (null: a hold made before it was kept).
     */
    admissionTaxRatePercent: real('admission_tax_rate_percent'),
    admissionExemptionApplies: integer('admission_exemption_applies', { mode: 'boolean' }),
  },
  (t) => [
    index('holds_status_expiry_idx').on(t.status, t.expiresAt),
    index('holds_user_idx').on(t.userId),
    // The buyer's active hold on a slot (every Proceed): only active holds are indexed, so finding it
    // costs the same for a buyer's 300th hold as for the first (issue 21).
    index('holds_active_user_slot_idx').on(t.userId, t.slotId).where(sql`status = 'active'`),
    // Seats held for one event right now (the sales dashboard): only active holds are indexed.
    index('holds_active_event_idx').on(t.eventId, t.expiresAt).where(sql`status = 'active'`),
    // An account's ended holds on a slot, newest last: the cool-down and the re-hold limit at Proceed
    // (services/inventory/hoarding.ts). Partial, so the active-hold lookup above keeps its own index.
    index('holds_ended_user_slot_idx').on(t.userId, t.slotId, t.createdAt).where(sql`status <> 'active'`),
    // Seats held from one client address right now (the per-address cap), read from the index alone.
    index('holds_active_address_idx').on(t.clientAddress, t.seats).where(sql`status = 'active'`),
    // Seats held of one slot from one client address right now (the per-slot share, issue 35), likewise.
    index('holds_active_address_slot_idx')
      .on(t.clientAddress, t.slotId, t.seats)
      .where(sql`status = 'active'`),
    // A buyer's uses of one code (the per-buyer limit, under the write lock) and a code's uses (the
    // console's list): only holds with a code are indexed, so a plain Proceed writes no entry.
    index('holds_discount_code_user_idx')
      .on(t.discountCodeId, t.userId)
      .where(sql`discount_code_id is not null`),
  ],
);

/** The ticket types and quantities of a hold: one conditional UPDATE per row at reservation. */
export const holdItems = sqliteTable(
  'hold_items',
  {
    holdId: text('hold_id')
      .notNull()
      .references(() => holds.id, { onDelete: 'cascade' }),
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    quantity: integer('quantity').notNull(),
    /** Unit price when held; the booking charges this, whatever the catalogue says later. */
    pricePaise: integer('price_paise').notNull(),
    position: integer('position').notNull().default(0),
    /** Paise a discount code took off each ticket of the line, before tax (0: none; services/discounts). */
    discountPaise: integer('discount_paise').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.holdId, t.ticketTypeId] }),
    index('hold_items_type_idx').on(t.ticketTypeId),
  ],
);

export type PaymentOrderStatus = 'created' | 'paid' | 'refunded';

/** A gateway order opened for a hold. Its id is the gateway's order id, against which signatures verify. */
export const paymentOrders = sqliteTable(
  'payment_orders',
  {
    id: text('id').primaryKey(),
    gateway: text('gateway').$type<'razorpay' | 'simulator'>().notNull(),
    holdId: text('hold_id')
      .notNull()
      .references(() => holds.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    amountPaise: integer('amount_paise').notNull(),
    currency: text('currency').notNull(),
    receipt: text('receipt').notNull(),
    notes: text('notes', { mode: 'json' }).$type<Record<string, string>>().notNull(),
    status: text('status').$type<PaymentOrderStatus>().notNull().default('created'),
    /** Last time the reconciler asked the gateway about this order. */
    checkedAt: text('checked_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('payment_orders_hold_idx').on(t.holdId),
    index('payment_orders_status_idx').on(t.status),
    // The reconciler's sweeps: one status's orders within an age window (services/payments/reconcile.ts).
    index('payment_orders_status_created_idx').on(t.status, t.createdAt),
  ],
);

/** A refund the bank returns (refund.failed) goes back to pending and is issued again. */
export type RefundStatus = 'pending' | 'processed';

/**
 * Money going back for one payment: a verified payment that could not become a booking (its seats were
 * gone, its slot cancelled), or a cancelled booking. Unique on payment id, so a payment is refunded at
 * most once whoever asks (a late payment is written in a transaction that also checks
 * `bookings.payment_id`: it ends as one booking or one refund). The gateway call happens after commit,
 * in the refund job (services/refunds), which retries with back-off and survives restarts.
 */
export const refunds = sqliteTable(
  'refunds',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id').notNull().unique(),
    orderId: text('order_id')
      .notNull()
      .references(() => paymentOrders.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    amountPaise: integer('amount_paise').notNull(),
    reason: text('reason').notNull(),
    status: text('status').$type<RefundStatus>().notNull().default('pending'),
    gatewayRefundId: text('gateway_refund_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    /** The cancelled booking this refunds; null for a payment that never became a booking. */
    bookingId: text('booking_id'),
    /**
     * When the refund job may next call the gateway for it: null = now. Set to a lease before each call
     * (so a second runner skips it) and to the back-off after a failure.
     */
    nextAttemptAt: text('next_attempt_at'),
  },
  (t) => [
    index('refunds_status_idx').on(t.status),
    index('refunds_due_idx').on(t.status, t.nextAttemptAt),
    index('refunds_booking_idx').on(t.bookingId),
  ],
);

/** Webhook deliveries already seen, by the gateway's event id, so a replay is acknowledged and ignored. */
export const webhookEvents = sqliteTable('webhook_events', {
  id: text('id').primaryKey(),
  event: text('event').notNull(),
  receivedAt: text('received_at').notNull(),
  processedAt: text('processed_at'),
});

/**
 * The offline simulator's own books (integrations/simulator): what a real gateway keeps on its side.
 * The app never reads these except through the PaymentGateway interface.
 */
export const simulatorOrders = sqliteTable('simulator_orders', {
  id: text('id').primaryKey(),
  amountPaise: integer('amount_paise').notNull(),
  currency: text('currency').notNull(),
  receipt: text('receipt').notNull(),
  notes: text('notes', { mode: 'json' }).$type<Record<string, string>>().notNull(),
  status: text('status').$type<'created' | 'attempted' | 'paid'>().notNull().default('created'),
  createdAt: text('created_at').notNull(),
});

export const simulatorPayments = sqliteTable(
  'simulator_payments',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => simulatorOrders.id),
    amountPaise: integer('amount_paise').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<'captured' | 'failed' | 'refunded'>().notNull(),
    errorDescription: text('error_description'),
    amountRefundedPaise: integer('amount_refunded_paise').notNull().default(0),
    refundId: text('refund_id'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('simulator_payments_order_idx').on(t.orderId)],
);
