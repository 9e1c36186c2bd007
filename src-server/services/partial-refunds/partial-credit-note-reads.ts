import { and, asc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { bytewise } from '../../db/engine/reads.ts';
import { row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { CreditNoteRow, InvoiceRow } from '../invoices/invoice-pdf.ts';
import { keysetPagesAsync } from '../sales/csv-stream.ts';

/**
 * A part refund's credit note with its invoice, shaped as a whole one: the PDF and its download check
 * (read-invoices.ts) treat both alike. Undefined when there is none of that id.
 */
export function* partialCreditNoteForDownloadSteps(
  db: DbOrTx,
  creditNoteId: string,
): Steps<{ creditNote: CreditNoteRow; invoice: InvoiceRow } | undefined> {
  const { partialCreditNotes, invoices } = tablesOf(db);
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
            .orderBy(
              asc(bytewise(db, partialCreditNotes.issuedAt)),
              asc(bytewise(db, partialCreditNotes.number)),
            ),
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
export async function* partialCreditNotePages(
  db: Db | DbOrTx,
  issuer: string,
  from: string,
  to: string,
  pageSize: number,
): AsyncGenerator<{ note: CreditNoteRow; invoice: InvoiceRow }[], void, undefined> {
  const { partialCreditNotes, invoices } = tablesOf(db);
  // Ordered and compared by bytes on both engines (the cursor must agree with the order).
  const issuedAt = bytewise(db, partialCreditNotes.issuedAt);
  const id = bytewise(db, partialCreditNotes.id);
  const readPage = async (after: { note: CreditNoteRow } | undefined) =>
    (
      await db
        .select({ note: partialCreditNotes, invoice: invoices })
        .from(partialCreditNotes)
        .innerJoin(invoices, eq(invoices.id, partialCreditNotes.invoiceId))
        .where(
          and(
            eq(partialCreditNotes.issuer, issuer),
            gte(partialCreditNotes.issuedAt, from),
            lt(partialCreditNotes.issuedAt, to),
            after
              ? or(
                  sql`${issuedAt} > ${after.note.issuedAt}`,
                  and(eq(partialCreditNotes.issuedAt, after.note.issuedAt), sql`${id} > ${after.note.id}`),
                )
              : undefined,
          ),
        )
        .orderBy(asc(issuedAt), asc(id))
        .limit(pageSize)
    ).map(({ note: { refundPartId: _part, ...note }, invoice }) => ({ note, invoice }));
  yield* keysetPagesAsync(readPage, pageSize);
}

/** The pages of one reader, then another's. */
export async function* chainPages<Row>(
  ...sources: AsyncIterable<Row[]>[]
): AsyncGenerator<Row[], void, undefined> {
  for (const source of sources) yield* source;
}
