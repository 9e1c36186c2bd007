import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AccountRole } from '../../../shared/organiser-schemas.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { bytewise, runStatements } from '../../db/engine/reads.ts';
import { row, rows, type Steps } from '../../db/engine/steps.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import type { InvoiceKind } from '../../db/schema/invoices.ts';
import { notFound } from '../../errors.ts';
import { paidBy } from '../bookings/payer.ts';
import {
  partialCreditNoteForDownloadSteps,
  withPartCreditNotesSteps,
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

const summaryColumns = ({ invoices, creditNotes }: Tables) => ({
  id: invoices.id,
  bookingId: invoices.bookingId,
  kind: invoices.kind,
  number: invoices.number,
  issuedAt: invoices.issuedAt,
  totalPaise: invoices.totalPaise,
  buyerGstin: invoices.buyerGstin,
  creditNoteNumber: creditNotes.number,
  creditNoteId: creditNotes.id,
});

/**
 * The invoices of a booking the caller paid for (My Bookings, also once they transferred it); a booking
 * someone else paid for, even one transferred to the caller, is NOT_FOUND (ADR 0025).
 */
export function listOwnBookingInvoices(
  db: Db | DbOrTx,
  userId: string,
  bookingId: string,
): Promise<InvoiceSummary[]> {
  return runStatements(db, function* (d) {
    const q = invoiceLookups(d);
    if (!(yield* row(q.ownedBooking, { bookingId, userId }))) throw notFound('Booking not found');
    return yield* withPartCreditNotesSteps(d, yield* rows(q.ofBooking, { bookingId }));
  });
}

/**
 * The admission invoices of one page of an event's orders, for the organiser's order view (the caller's
 * access to the event is checked by the procedure; bookings of other events are ignored).
 */
export async function listEventInvoices(
  db: Db | DbOrTx,
  eventId: string,
  bookingIds: string[],
): Promise<InvoiceSummary[]> {
  if (bookingIds.length === 0) return [];
  const tables = tablesOf(db);
  const { invoices, creditNotes } = tables;
  // Found by booking (invoices_booking_idx); the event is checked on the few rows found, so the
  // planner is never tempted to walk the whole event's invoices.
  const found = await db
    .select({ ...summaryColumns(tables), eventId: invoices.eventId })
    .from(invoices)
    .leftJoin(creditNotes, eq(creditNotes.invoiceId, invoices.id))
    .where(and(inArray(invoices.bookingId, bookingIds), eq(invoices.kind, 'admission')))
    .orderBy(asc(bytewise(db, invoices.issuedAt)));
  return found.filter((row) => row.eventId === eventId).map(({ eventId: _event, ...summary }) => summary);
}

/**
 * One invoice for download: the buyer whose booking it is, or the event's owner, co-organisers and
 * admins (viewSales). Anyone else gets the same NOT_FOUND as for an invoice that does not exist.
 */
export async function getInvoiceForDownload(
  db: Db | DbOrTx,
  invoiceId: string,
  userId: string | null,
  accountRole: AccountRole,
): Promise<InvoiceRow> {
  if (!userId || invoiceId.length > 100) throw notFound(INVOICE_NOT_FOUND);
  return runStatements(db, function* (d) {
    const found = yield* row(invoiceLookups(d).invoice, { invoiceId });
    if (!found || !(yield* mayDownloadSteps(d, found, userId, accountRole))) {
      throw notFound(INVOICE_NOT_FOUND);
    }
    return found;
  });
}

/**
 * One credit note for download, with the invoice it refers to (its parties and number are printed on
 * it). Whoever may download that invoice may download its credit note; anyone else gets NOT_FOUND.
 */
export async function getCreditNoteForDownload(
  db: Db | DbOrTx,
  creditNoteId: string,
  userId: string | null,
  accountRole: AccountRole,
): Promise<{ invoice: InvoiceRow; creditNote: CreditNoteRow }> {
  if (!userId || creditNoteId.length > 100) throw notFound(CREDIT_NOTE_NOT_FOUND);
  return runStatements(db, function* (d) {
    const { creditNotes, invoices } = tablesOf(d);
    const found =
      (yield* row(
        d
          .select({ creditNote: creditNotes, invoice: invoices })
          .from(creditNotes)
          .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
          .where(eq(creditNotes.id, creditNoteId)),
      )) ?? (yield* partialCreditNoteForDownloadSteps(d, creditNoteId));
    if (!found || !(yield* mayDownloadSteps(d, found.invoice, userId, accountRole))) {
      throw notFound(CREDIT_NOTE_NOT_FOUND);
    }
    return found;
  });
}

/** The booking's payer, or (admission documents only) the event's owner, co-organisers and admins. */
function* mayDownloadSteps(
  db: DbOrTx,
  invoice: InvoiceRow,
  userId: string,
  accountRole: AccountRole,
): Steps<boolean> {
  const buyer = yield* row(invoiceLookups(db).bookingPayer, { bookingId: invoice.bookingId });
  // The invoice is the payer's, also after the booking was transferred (ADR 0025).
  if (buyer && (buyer.paidByUserId ?? buyer.userId) === userId) return true;
  // The platform's fee invoice is the buyer's and the platform's business, not the organiser's.
  if (invoice.kind !== 'admission') return false;
  const access = yield* eventAccessSteps(db, invoice.eventId, userId, accountRole);
  return !!access && eventRoleMay(access.role, 'viewSales');
}

const p = sql.placeholder;

/** Built once per database: the buyer's and the organiser's invoice reads (issue 21). */
const invoiceLookups = oncePer((db: DbOrTx) => prepareInvoiceLookups(db, tablesOf(db)));

function prepareInvoiceLookups(db: DbOrTx, tables: Tables) {
  const { bookings, invoices, creditNotes } = tables;
  return {
    ownedBooking: db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.id, p('bookingId')), paidBy(p('userId'))))
      .prepare(),
    ofBooking: db
      .select(summaryColumns(tables))
      .from(invoices)
      .leftJoin(creditNotes, eq(creditNotes.invoiceId, invoices.id))
      .where(eq(invoices.bookingId, p('bookingId')))
      // Per kind, oldest first: a re-issue (buyer's GSTIN added) comes after the invoice it replaced.
      // Compared by bytes on both engines, so PostgreSQL's locale cannot reorder them.
      .orderBy(
        asc(bytewise(db, invoices.kind)),
        asc(bytewise(db, invoices.issuedAt)),
        asc(bytewise(db, invoices.number)),
      )
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
  };
}
