import { and, asc, eq, gt, gte, inArray, lt, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { CreditNoteRow, InvoiceRow } from '../invoices/invoice-pdf.ts';
import { keysetPages } from '../sales/csv-stream.ts';

/**
 * A part refund's credit note with its invoice, shaped as a whole one: the PDF and its download check
 * (read-invoices.ts) treat both alike. Undefined when there is none of that id.
 */
export function partialCreditNoteForDownload(
  db: Db,
  creditNoteId: string,
): { creditNote: CreditNoteRow; invoice: InvoiceRow } | undefined {
  return runSync(partialCreditNoteForDownloadSteps(db, creditNoteId));
}

/** `partialCreditNoteForDownload` written once for both engines (ADR 0045). */
export function* partialCreditNoteForDownloadSteps(
  db: DbOrTx,
  creditNoteId: string,
): Steps<{ creditNote: CreditNoteRow; invoice: InvoiceRow } | undefined> {
  const { invoices, partialCreditNotes } = tablesOf(db);
  const found = yield* row(
    db
      .select({ note: partialCreditNotes, invoice: invoices })
      .from(partialCreditNotes)
      .innerJoin(invoices, eq(invoices.id, partialCreditNotes.invoiceId))
      .where(eq(partialCreditNotes.id, creditNoteId)),
  );
  if (!found) return undefined;
  const { refundPartId: _part, ...creditNote } = found.note;
  return { creditNote, invoice: found.invoice };
}

/** Adds each invoice's part-refund credit notes to a list of a booking's invoices. */
export function withPartCreditNotes<T extends { id: string }>(
  db: Db,
  list: T[],
): (T & { partCreditNotes: { id: string; number: string; totalPaise: number }[] })[] {
  return runSync(withPartCreditNotesSteps(db, list));
}

/** `withPartCreditNotes` written once for both engines (ADR 0045). */
export function* withPartCreditNotesSteps<T extends { id: string }>(
  db: DbOrTx,
  list: T[],
): Steps<(T & { partCreditNotes: { id: string; number: string; totalPaise: number }[] })[]> {
  const { partialCreditNotes } = tablesOf(db);
  const ids = list.map((i) => i.id);
  const notes =
    ids.length === 0
      ? []
      : yield* rows(
          db
            .select({
              id: partialCreditNotes.id,
              invoiceId: partialCreditNotes.invoiceId,
              number: partialCreditNotes.number,
              totalPaise: partialCreditNotes.totalPaise,
            })
            .from(partialCreditNotes)
            .where(inArray(partialCreditNotes.invoiceId, ids))
            .orderBy(asc(partialCreditNotes.issuedAt), asc(partialCreditNotes.number)),
        );
  return list.map((invoice) => ({
    ...invoice,
    partCreditNotes: notes
      .filter((n) => n.invoiceId === invoice.id)
      .map(({ invoiceId: _invoice, ...n }) => n),
  }));
}

/**
 * One issuer's part-refund credit notes issued in [from, to), page by page, shaped as the whole ones the
 * GST exports read (`{ note, invoice }`), so both exports list them after the whole notes with the same
 * code (export-gstr1.ts, stream-invoices-csv.ts).
 */
export function* partialCreditNotePages(
  db: Db,
  issuer: string,
  from: string,
  to: string,
  pageSize: number,
): Generator<{ note: CreditNoteRow; invoice: InvoiceRow }[], void, undefined> {
  const readPage = (after: PartCreditNotePage[number] | undefined) =>
    runSync(partialCreditNotePageSteps(db, { issuer, from, to, pageSize }, after));
  yield* keysetPages(readPage, pageSize);
}

type PartCreditNotePage = { note: CreditNoteRow; invoice: InvoiceRow }[];

/**
 * One page of `partialCreditNotePages`, after the last row of the page before, written once for both
 * engines (ADR 0045): an export on PostgreSQL reads page by page with it.
 */
export function* partialCreditNotePageSteps(
  db: DbOrTx,
  range: { issuer: string; from: string; to: string; pageSize: number },
  after: { note: Pick<CreditNoteRow, 'id' | 'issuedAt'> } | undefined,
): Steps<PartCreditNotePage> {
  const { invoices, partialCreditNotes } = tablesOf(db);
  const found = yield* rows(
    db
      .select({ note: partialCreditNotes, invoice: invoices })
      .from(partialCreditNotes)
      .innerJoin(invoices, eq(invoices.id, partialCreditNotes.invoiceId))
      .where(
        and(
          eq(partialCreditNotes.issuer, range.issuer),
          gte(partialCreditNotes.issuedAt, range.from),
          lt(partialCreditNotes.issuedAt, range.to),
          after
            ? or(
                gt(partialCreditNotes.issuedAt, after.note.issuedAt),
                and(
                  eq(partialCreditNotes.issuedAt, after.note.issuedAt),
                  gt(partialCreditNotes.id, after.note.id),
                ),
              )
            : undefined,
        ),
      )
      .orderBy(asc(partialCreditNotes.issuedAt), asc(partialCreditNotes.id))
      .limit(range.pageSize),
  );
  return found.map(({ note: { refundPartId: _part, ...note }, invoice }) => ({ note, invoice }));
}

/** The pages of one reader, then another's. */
export function* chainPages<Row>(...sources: Iterable<Row[]>[]): Generator<Row[], void, undefined> {
  for (const source of sources) yield* source;
}

/** The same pages as the accountant's monthly CSV reads its credit notes (stream-invoices-csv.ts). */
export function* partialCreditNoteCsvPages(
  db: Db,
  issuer: string,
  from: string,
  to: string,
  pageSize: number,
) {
  for (const page of partialCreditNotePages(db, issuer, from, to, pageSize))
    yield page.map(({ note, invoice }) => ({
      id: note.id,
      number: note.number,
      issuedAt: note.issuedAt,
      taxable: note.taxableValuePaise,
      igst: note.igstPaise,
      cgst: note.cgstPaise,
      stateTax: note.sgstPaise,
      stateTaxHead: invoice.stateTaxHead,
      total: note.totalPaise,
      invoiceNumber: invoice.number,
      buyerGstin: invoice.buyerGstin,
      buyerLegalName: invoice.buyerLegalName,
      placeOfSupply: invoice.placeOfSupply,
    }));
}
