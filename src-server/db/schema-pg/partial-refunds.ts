import { bigint, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CancelledTicketLine, RefundPartKind } from '../schema/partial-refunds.ts';
import type { RefundStatus } from '../schema/payments.ts';
import { users } from './accounts.ts';
import { bookings } from './bookings.ts';
import { invoices } from './invoices.ts';
import { paymentOrders } from './payments.ts';

/**
 * Money going back for part of a payment (issue 40, ADR 0043): any number per payment, together never
 * more than was paid (checked in the write transaction that records one). `refunds` keeps its unique
 * payment id for the whole-payment refunds (a cancellation, a payment that never became a booking), so
 * an older release and its `ON CONFLICT (payment_id)` keep working on an upgraded database. Issued by the
 * same refund job, with the same lease, back-off and idempotency key as `refunds`.
 */
export const refundParts = pgTable(
  'refund_parts',
  {
    id: text('id').primaryKey(),
    paymentId: text('payment_id').notNull(),
    orderId: text('order_id')
      .notNull()
      .references(() => paymentOrders.id),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    /** Who paid: the money goes back to them (ADR 0025). */
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    /** The part of `amount_paise` that came out of the convenience fee and its GST (the platform's). */
    feePaise: bigint('fee_paise', { mode: 'number' }).notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    kind: text('kind').$type<RefundPartKind>().notNull(),
    /** The organiser's words for the buyer, or the buyer's policy refund; printed on the credit note. */
    reason: text('reason').notNull(),
    /** The organiser or buyer who asked. */
    actorUserId: text('actor_user_id').references(() => users.id),
    cancelledTickets: jsonb('cancelled_tickets').$type<CancelledTicketLine[]>().notNull(),
    status: text('status').$type<RefundStatus>().notNull().default('pending'),
    gatewayRefundId: text('gateway_refund_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** As `refunds.next_attempt_at`: the lease or the back-off; null = now. */
    nextAttemptAt: text('next_attempt_at'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('refund_parts_payment_idx').on(t.paymentId),
    index('refund_parts_booking_idx').on(t.bookingId),
    index('refund_parts_due_idx').on(t.status, t.nextAttemptAt),
  ],
);

/**
 * A credit note for part of an invoice (a part refund's share of it): immutable, numbered in the issuer's
 * one credit-note series like `credit_notes`, its heads in the invoice's proportion. Several per invoice
 * (indexed, not unique); `credit_notes` keeps its unique invoice id for the whole-invoice notes.
 */
export const partialCreditNotes = pgTable(
  'partial_credit_notes',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id),
    refundPartId: text('refund_part_id')
      .notNull()
      .references(() => refundParts.id),
    issuer: text('issuer').notNull(),
    number: text('number').notNull(),
    financialYear: text('financial_year').notNull(),
    issuedAt: text('issued_at').notNull(),
    reason: text('reason').notNull(),
    taxableValuePaise: bigint('taxable_value_paise', { mode: 'number' }).notNull(),
    cgstPaise: bigint('cgst_paise', { mode: 'number' }).notNull(),
    sgstPaise: bigint('sgst_paise', { mode: 'number' }).notNull(),
    igstPaise: bigint('igst_paise', { mode: 'number' }).notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('partial_credit_notes_issuer_number_idx').on(t.issuer, t.number),
    index('partial_credit_notes_invoice_idx').on(t.invoiceId),
    index('partial_credit_notes_issuer_issued_idx').on(t.issuer, t.issuedAt),
  ],
);
