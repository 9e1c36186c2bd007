import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import type { CreditNoteKind, EInvoiceStatus } from '../schema/e-invoices.ts';
import { invoices } from './invoices.ts';

/** An invoice's registration with the IRP (../schema/e-invoices.ts says why it is a table of its own). */
export const eInvoiceRegistrations = pgTable(
  'e_invoice_registrations',
  {
    invoiceId: text('invoice_id')
      .primaryKey()
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
    index('e_invoice_registrations_due_idx').on(t.status, t.nextAttemptAt),
    index('e_invoice_registrations_issuer_idx').on(t.issuer, t.status),
  ],
);

/** A credit note's registration with the IRP (../schema/e-invoices.ts says why it is a table of its own). */
export const eCreditNoteRegistrations = pgTable(
  'e_credit_note_registrations',
  {
    creditNoteId: text('credit_note_id').primaryKey(),
    kind: text('kind').$type<CreditNoteKind>().notNull(),
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
