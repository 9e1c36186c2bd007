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

/** Which credit-note table a registered note is in: `credit_notes` (whole) or `partial_credit_notes`. */
export type CreditNoteKind = 'whole' | 'part';

/**
 * A credit note's registration with the IRP (document type CRN): a credit note on an e-invoiced B2B
 * invoice is itself an e-invoice. A table of its own rather than rows in `e_invoice_registrations`:
 * that table's key is an invoice id with a foreign key to `invoices`, and SQLite cannot loosen a primary
 * key or foreign key without rebuilding the table, so an older release (and an upgraded database) keep it
 * exactly as it was. Keyed by the credit note's id (unique across both credit-note tables: random UUIDs),
 * with `kind` saying which table it is in; no foreign key, as it names a row of one of two tables.
 * Same columns and life as an invoice's registration (register-e-credit-notes.ts).
 */
export const eCreditNoteRegistrations = sqliteTable(
  'e_credit_note_registrations',
  {
    creditNoteId: text('credit_note_id').primaryKey(),
    kind: text('kind').$type<CreditNoteKind>().notNull(),
    /** The invoice it credits (its number and date go to the IRP as the preceding document). */
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id),
    issuer: text('issuer').notNull(),
    status: text('status').$type<EInvoiceStatus>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: text('next_attempt_at'),
    lastError: text('last_error'),
    irn: text('irn'),
    ackNumber: text('ack_number'),
    ackDate: text('ack_date'),
    signedQrCode: text('signed_qr_code'),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('e_credit_note_registrations_due_idx').on(t.status, t.nextAttemptAt),
    index('e_credit_note_registrations_issuer_idx').on(t.issuer, t.status),
  ],
);
