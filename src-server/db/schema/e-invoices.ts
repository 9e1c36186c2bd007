import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { invoices } from './invoices.ts';

export type EInvoiceStatus = 'pending' | 'registered' | 'failed';

/**
 * An invoice's registration with the Invoice Registration Portal (e-invoicing, issue 36). Invoices are
 * immutable (triggers refuse any UPDATE), so what the IRP answers lives here, one row per invoice: the
 * IRN, acknowledgement and signed QR once registered, or the IRP's last error while it is not. The
 * background job (register-e-invoices.ts) adds a 'pending' row for each B2B invoice that needs one and
 * retries with back-off until it is registered.
 */
export const eInvoiceRegistrations = sqliteTable(
  'e_invoice_registrations',
  {
    invoiceId: text('invoice_id')
      .primaryKey()
      .references(() => invoices.id),
    issuer: text('issuer').notNull(),
    status: text('status').$type<EInvoiceStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the job tries next; null once registered or given up (attempts exhausted). */
    nextAttemptAt: text('next_attempt_at'),
    /** The IRP's (or the network's) last error, shown to the organiser while not registered. */
    lastError: text('last_error'),
    irn: text('irn'),
    ackNumber: text('ack_number'),
    ackDate: text('ack_date'),
    signedQrCode: text('signed_qr_code'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    // The job's queue: what is due.
    index('e_invoice_registrations_due_idx').on(t.status, t.nextAttemptAt),
    // The organiser's list of e-invoices not registered.
    index('e_invoice_registrations_issuer_idx').on(t.issuer, t.status),
  ],
);
