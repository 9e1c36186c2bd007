import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  B2B_FEE_INVOICE,
  B2B_TAX_INVOICE,
  type DocumentSeries,
  type DocumentType,
  type InvoiceKind,
  type InvoiceLine,
} from '../schema/invoices.ts';
import { users } from './accounts.ts';
import { bookings } from './bookings.ts';
import { events } from './catalog.ts';

/**
 * An organiser's tax profile (issue 16): who the supplier on their invoices is. One row per organiser
 * account; events take its default rate unless they set their own (`events.tax_rate`).
 */
export const organiserProfiles = pgTable(
  'organiser_profiles',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    legalName: text('legal_name').notNull(),
    address: text('address').notNull(),
    /** One of shared/states.ts. */
    state: text('state').notNull(),
    /** Null when the organiser is not registered for GST (their documents are then bills of supply). */
    gstin: text('gstin'),
    defaultTaxRate: doublePrecision('default_tax_rate').notNull().default(18),
    taxInclusive: boolean('tax_inclusive').notNull().default(true),
    updatedAt: text('updated_at').notNull(),
    eInvoicingSince: text('e_invoicing_since'),
    aatoTenCroreOrMore: boolean('aato_ten_crore_or_more').notNull().default(false),
  },
  // The e-invoicing job's list of organisers under e-invoicing (register-e-invoices.ts).
  (t) => [index('organiser_profiles_e_invoicing_idx').on(t.eInvoicingSince)],
);

/**
 * The last number used in one issuer's series in one financial year (April–March, IST). Bumped by one
 * UPSERT … RETURNING inside the booking's confirming BEGIN IMMEDIATE transaction: consecutive, no gaps.
 */
export const documentCounters = pgTable(
  'document_counters',
  {
    issuer: text('issuer').notNull(),
    series: text('series').$type<DocumentSeries>().notNull(),
    /** '25-26' for April 2025 – March 2026. */
    financialYear: text('financial_year').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.series, t.financialYear] })],
);

/**
 * An issued invoice: immutable (nothing updates it), every amount stored, never recomputed. The PDF
 * and the accountant's CSV are rendered from this row.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    bookingId: text('booking_id')
      .notNull()
      .references(() => bookings.id),
    kind: text('kind').$type<InvoiceKind>().notNull(),
    documentType: text('document_type').$type<DocumentType>().notNull(),
    /** Organiser user id, or 'platform'. */
    issuer: text('issuer').notNull(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    number: text('number').notNull(),
    financialYear: text('financial_year').notNull(),
    issuedAt: text('issued_at').notNull(),
    supplierName: text('supplier_name').notNull(),
    supplierAddress: text('supplier_address').notNull(),
    supplierState: text('supplier_state').notNull(),
    supplierGstin: text('supplier_gstin'),
    buyerName: text('buyer_name').notNull(),
    buyerState: text('buyer_state').notNull(),
    buyerGstin: text('buyer_gstin'),
    buyerLegalName: text('buyer_legal_name'),
    /** The recipient's address when Rule 46 needs it (schema/invoices.ts). */
    buyerAddress: text('buyer_address'),
    placeOfSupply: text('place_of_supply').notNull(),
    /** 'UTGST' when the state-level half is UTGST (schema/invoices.ts, ADR 0033); null: SGST. */
    stateTaxHead: text('state_tax_head').$type<'UTGST'>(),
    taxInclusive: boolean('tax_inclusive').notNull(),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    taxableValuePaise: bigint('taxable_value_paise', { mode: 'number' }).notNull(),
    cgstPaise: bigint('cgst_paise', { mode: 'number' }).notNull(),
    sgstPaise: bigint('sgst_paise', { mode: 'number' }).notNull(),
    igstPaise: bigint('igst_paise', { mode: 'number' }).notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull(),
    /** Printed under the lines: the exemption wording, the fee statement. */
    notes: jsonb('notes').$type<string[]>().notNull(),
  },
  (t) => [
    uniqueIndex('invoices_issuer_number_idx').on(t.issuer, t.number),
    // A booking's invoices: one per kind, plus the replacements when a GSTIN was added later (ADR 0024).
    index('invoices_booking_idx').on(t.bookingId, t.kind),
    // The accountant's monthly CSV: one issuer's invoices in a date range.
    index('invoices_issuer_issued_idx').on(t.issuer, t.issuedAt),
    // The organiser's order view: one event's invoices.
    index('invoices_event_issued_idx').on(t.eventId, t.issuedAt),
    index('invoices_b2b_issuer_issued_idx').on(t.issuer, t.issuedAt).where(B2B_TAX_INVOICE),
    index('invoices_b2b_fee_issuer_issued_idx').on(t.issuer, t.issuedAt).where(B2B_FEE_INVOICE),
  ],
);

/** A credit note cancelling an invoice (whole): immutable, its own number series, amounts copied. */
export const creditNotes = pgTable(
  'credit_notes',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id')
      .notNull()
      .unique()
      .references(() => invoices.id),
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
    uniqueIndex('credit_notes_issuer_number_idx').on(t.issuer, t.number),
    // The accountant's monthly CSV.
    index('credit_notes_issuer_issued_idx').on(t.issuer, t.issuedAt),
  ],
);
