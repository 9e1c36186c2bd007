import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { TaxLine } from '../../../shared/gst.ts';
import { users } from './accounts.ts';
import { bookings } from './bookings.ts';
import { events } from './catalog.ts';

/**
 * An organiser's tax profile (issue 16): who the supplier on their invoices is. One row per organiser
 * account; events take its default rate unless they set their own (`events.tax_rate`).
 */
export const organiserProfiles = sqliteTable(
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
    defaultTaxRate: real('default_tax_rate').notNull().default(18),
    taxInclusive: integer('tax_inclusive', { mode: 'boolean' }).notNull().default(true),
    updatedAt: text('updated_at').notNull(),
    /**
     * When the organiser said e-invoicing applies to them (turnover above the threshold, issue 36): their
     * B2B tax invoices issued from then on are registered with the IRP (e-invoices.ts). Null: it does not.
     */
    eInvoicingSince: text('e_invoicing_since'),
    /**
     * What the organiser stated with the setting: aggregate annual turnover of ₹10 crore or more. Only
     * then does the IRP's 30-day reporting window apply (GSTN advisory, from 1 Apr 2025), so only then
     * does the job give up on an older invoice by itself. False for rows from before it was asked: no
     * window of Jalsa's own, so a valid invoice is never given up on wrongly (the IRP refuses a too-old
     * one with its own message, which the job records).
     */
    aatoTenCroreOrMore: integer('aato_ten_crore_or_more', { mode: 'boolean' }).notNull().default(false),
  },
  // The e-invoicing job's list of organisers under e-invoicing (register-e-invoices.ts).
  (t) => [index('organiser_profiles_e_invoicing_idx').on(t.eInvoicingSince)],
);

/** The issuer of a number series: an organiser's user id, or PLATFORM_ISSUER for the convenience fee. */
export const PLATFORM_ISSUER = 'platform';
/** 'bill_of_supply': a wholly exempt or unregistered supply's own series (Rule 49 allows one or more). */
export type DocumentSeries = 'invoice' | 'credit_note' | 'platform_invoice' | 'bill_of_supply';

/**
 * The last number used in one issuer's series in one financial year (April–March, IST). Bumped by one
 * UPSERT … RETURNING inside the booking's confirming BEGIN IMMEDIATE transaction: consecutive, no gaps.
 */
export const documentCounters = sqliteTable(
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

/** One line of an invoice, every amount stored as issued. */
export interface InvoiceLine extends Omit<TaxLine, 'taxPaise'> {
  description: string;
  sac: string;
  quantity: number;
  unitPricePaise: number;
  personsPerTicket: number;
  /**
   * The discount code's reduction of the line (issue 40): paise off each ticket and its name. The
   * taxable value is on `unitPricePaise` − this; absent on undiscounted lines (and older invoices).
   */
  discountPerTicketPaise?: number;
  discountCode?: string;
  /** An add-on's line (ADR 0041) at the add-on's own rate; absent on admission lines. */
  addOn?: true;
}

export type InvoiceKind = 'admission' | 'platform_fee';

/**
 * An admission tax invoice between two GSTINs: what e-invoicing registers. Literals, not parameters, so
 * the partial index below matches the job's query.
 */
export const B2B_TAX_INVOICE = sql`kind = 'admission' and document_type = 'tax_invoice' and buyer_gstin is not null and supplier_gstin is not null`;
/**
 * The platform's convenience-fee tax invoice to a buyer with a GSTIN: what e-invoicing registers for the
 * platform (PLATFORM_E_INVOICING_SINCE). Literals, as above, for the partial index below.
 */
export const B2B_FEE_INVOICE = sql`kind = 'platform_fee' and document_type = 'tax_invoice' and buyer_gstin is not null and supplier_gstin is not null`;
export type DocumentType = 'tax_invoice' | 'bill_of_supply';

/**
 * An issued invoice: immutable (nothing updates it), every amount stored, never recomputed. The PDF
 * and the accountant's CSV are rendered from this row.
 */
export const invoices = sqliteTable(
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
    /**
     * The recipient's address, collected only when Rule 46 needs it (a GSTIN given, or an admission
     * invoice of ₹50,000 or more: shared/recipient-address.ts); null otherwise and on older invoices.
     */
    buyerAddress: text('buyer_address'),
    placeOfSupply: text('place_of_supply').notNull(),
    /**
     * The head the intra-state half besides CGST is levied under: 'UTGST' for a union territory without a
     * legislature (issue 36), its amounts in the sgst columns; null means SGST (every invoice before).
     */
    stateTaxHead: text('state_tax_head').$type<'UTGST'>(),
    taxInclusive: integer('tax_inclusive', { mode: 'boolean' }).notNull(),
    lines: text('lines', { mode: 'json' }).$type<InvoiceLine[]>().notNull(),
    taxableValuePaise: integer('taxable_value_paise').notNull(),
    cgstPaise: integer('cgst_paise').notNull(),
    sgstPaise: integer('sgst_paise').notNull(),
    igstPaise: integer('igst_paise').notNull(),
    totalPaise: integer('total_paise').notNull(),
    /** Printed under the lines: the exemption wording, the fee statement. */
    notes: text('notes', { mode: 'json' }).$type<string[]>().notNull(),
  },
  (t) => [
    uniqueIndex('invoices_issuer_number_idx').on(t.issuer, t.number),
    // A booking's invoices: one per kind, plus the replacements when a GSTIN was added later (ADR 0024).
    index('invoices_booking_idx').on(t.bookingId, t.kind),
    // The accountant's monthly CSV: one issuer's invoices in a date range.
    index('invoices_issuer_issued_idx').on(t.issuer, t.issuedAt),
    // The organiser's order view: one event's invoices.
    index('invoices_event_issued_idx').on(t.eventId, t.issuedAt),
    // The e-invoicing job: one organiser's B2B tax invoices of recent weeks (register-e-invoices.ts).
    index('invoices_b2b_issuer_issued_idx').on(t.issuer, t.issuedAt).where(B2B_TAX_INVOICE),
    // The same for the platform's B2B fee invoices, so a run never walks the B2C fee invoices.
    index('invoices_b2b_fee_issuer_issued_idx').on(t.issuer, t.issuedAt).where(B2B_FEE_INVOICE),
  ],
);

/** A credit note cancelling an invoice (whole): immutable, its own number series, amounts copied. */
export const creditNotes = sqliteTable(
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
    taxableValuePaise: integer('taxable_value_paise').notNull(),
    cgstPaise: integer('cgst_paise').notNull(),
    sgstPaise: integer('sgst_paise').notNull(),
    igstPaise: integer('igst_paise').notNull(),
    totalPaise: integer('total_paise').notNull(),
  },
  (t) => [
    uniqueIndex('credit_notes_issuer_number_idx').on(t.issuer, t.number),
    // The accountant's monthly CSV.
    index('credit_notes_issuer_issued_idx').on(t.issuer, t.issuedAt),
  ],
);
