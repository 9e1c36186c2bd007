import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AccountRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';
import { runSync } from '../../db/engine/steps.ts';
import { oncePer } from '../../db/once-per.ts';
import { bookings } from '../../db/schema/bookings.ts';
import { creditNotes, type InvoiceKind, invoices } from '../../db/schema/invoices.ts';
import { notFound } from '../../errors.ts';
import { paidBy } from '../bookings/payer.ts';
import {
  partialCreditNoteForDownload,
  withPartCreditNotes,
} from '../partial-refunds/partial-credit-note-reads.ts';
import { eventRoleMay } from '../team/event-permissions.ts';
import { eventAccessSteps } from '../team/load-event-access.ts';
import type { CreditNoteRow, InvoiceRow } from './invoice-pdf.ts';

export const INVOICE_NOT_FOUND = 'Invoice not found';
export const CREDIT_NOTE_NOT_FOUND = 'Credit note not found';

export interface InvoiceSummary {
  id: string;
  bookingId: string;
  kind: InvoiceKind;
  number: string;
  issuedAt: string;
  totalPaise: number;
  buyerGstin: string | null;
  creditNoteNumber: string | null;
  /** The credit note's id for its PDF (GET /api/invoices/credit-notes/{id}.pdf), when credited. */
  creditNoteId: string | null;
  /** Credit notes for part refunds of it (ADR 0043), oldest first; downloaded at the same address. */
  partCreditNotes?: { id: string; number: string; totalPaise: number }[];
}

const summaryColumns = {
  id: invoices.id,
  bookingId: invoices.bookingId,
  kind: invoices.kind,
  number: invoices.number,
  issuedAt: invoices.issuedAt,
  totalPaise: invoices.totalPaise,
  buyerGstin: invoices.buyerGstin,
  creditNoteNumber: creditNotes.number,
  creditNoteId: creditNotes.id,
};

/**
 * The invoices of a booking the caller paid for (My Bookings, also once they transferred it); a booking
 * someone else paid for, even one transferred to the caller, is NOT_FOUND (ADR 0025).
 */
export function listOwnBookingInvoices(db: Db, userId: string, bookingId: string): InvoiceSummary[] {
  const q = invoiceLookups(db);
  if (!q.ownedBooking.get({ bookingId, userId })) throw notFound('Booking not found');
  return withPartCreditNotes(db, q.ofBooking.all({ bookingId }));
}

/**
 * The admission invoices of one page of an event's orders, for the organiser's order view (the caller's
 * access to the event is checked by the procedure; bookings of other events are ignored).
 */
export function listEventInvoices(db: Db, eventId: string, bookingIds: string[]): InvoiceSummary[] {
  if (bookingIds.length === 0) return [];
  // Found by booking (invoices_booking_idx); the event is checked on the few rows found, so the
  // planner is never tempted to walk the whole event's invoices.
  return db
    .select({ ...summaryColumns, eventId: invoices.eventId })
    .from(invoices)
    .leftJoin(creditNotes, eq(creditNotes.invoiceId, invoices.id))
    .where(and(inArray(invoices.bookingId, bookingIds), eq(invoices.kind, 'admission')))
    .orderBy(asc(invoices.issuedAt))
    .all()
    .filter((row) => row.eventId === eventId)
    .map(({ eventId: _event, ...summary }) => summary);
}

/**
 * One invoice for download: the buyer whose booking it is, or the event's owner, co-organisers and
 * admins (viewSales). Anyone else gets the same NOT_FOUND as for an invoice that does not exist.
 */
export function getInvoiceForDownload(
  db: Db,
  invoiceId: string,
  userId: string | null,
  accountRole: AccountRole,
): InvoiceRow {
  if (!userId || invoiceId.length > 100) throw notFound(INVOICE_NOT_FOUND);
  const row = invoiceLookups(db).invoice.get({ invoiceId });
  if (!row || !mayDownload(db, row, userId, accountRole)) throw notFound(INVOICE_NOT_FOUND);
  return row;
}

/**
 * One credit note for download, with the invoice it refers to (its parties and number are printed on
 * it). Whoever may download that invoice may download its credit note; anyone else gets NOT_FOUND.
 */
export function getCreditNoteForDownload(
  db: Db,
  creditNoteId: string,
  userId: string | null,
  accountRole: AccountRole,
): { invoice: InvoiceRow; creditNote: CreditNoteRow } {
  if (!userId || creditNoteId.length > 100) throw notFound(CREDIT_NOTE_NOT_FOUND);
  const found =
    db
      .select({ creditNote: creditNotes, invoice: invoices })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(eq(creditNotes.id, creditNoteId))
      .get() ?? partialCreditNoteForDownload(db, creditNoteId);
  if (!found || !mayDownload(db, found.invoice, userId, accountRole)) throw notFound(CREDIT_NOTE_NOT_FOUND);
  return found;
}

/** The booking's payer, or (admission documents only) the event's owner, co-organisers and admins. */
function mayDownload(db: Db, row: InvoiceRow, userId: string, accountRole: AccountRole): boolean {
  const buyer = invoiceLookups(db).bookingPayer.get({ bookingId: row.bookingId });
  // The invoice is the payer's, also after the booking was transferred (ADR 0025).
  if (buyer && (buyer.paidByUserId ?? buyer.userId) === userId) return true;
  // The platform's fee invoice is the buyer's and the platform's business, not the organiser's.
  if (row.kind !== 'admission') return false;
  const access = runSync(eventAccessSteps(db, row.eventId, userId, accountRole));
  return !!access && eventRoleMay(access.role, 'viewSales');
}

const p = sql.placeholder;

/** Built once per database: the buyer's and the organiser's invoice reads (issue 21). */
const invoiceLookups = oncePer((db: Db) => ({
  ownedBooking: db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.id, p('bookingId')), paidBy(p('userId'))))
    .prepare(),
  ofBooking: db
    .select(summaryColumns)
    .from(invoices)
    .leftJoin(creditNotes, eq(creditNotes.invoiceId, invoices.id))
    .where(eq(invoices.bookingId, p('bookingId')))
    // Per kind, oldest first: a re-issue (buyer's GSTIN added) comes after the invoice it replaced.
    .orderBy(asc(invoices.kind), asc(invoices.issuedAt), asc(invoices.number))
    .prepare(),
  invoice: db
    .select()
    .from(invoices)
    .where(eq(invoices.id, p('invoiceId')))
    .prepare(),
  bookingPayer: db
    .select({ userId: bookings.userId, paidByUserId: bookings.paidByUserId })
    .from(bookings)
    .where(eq(bookings.id, p('bookingId')))
    .prepare(),
}));
