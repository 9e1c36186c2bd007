import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { partialCreditNotes } from '../../db/schema/partial-refunds.ts';
import type { CreditNoteRow, InvoiceRow } from '../invoices/invoice-pdf.ts';

/**
 * A part refund's credit note with its invoice, shaped as a whole one: the PDF and its download check
 * (read-invoices.ts) treat both alike. Undefined when there is none of that id.
 */
export function partialCreditNoteForDownload(
  db: Db,
  creditNoteId: string,
): { creditNote: CreditNoteRow; invoice: InvoiceRow } | undefined {
  const found = db
    .select({ note: partialCreditNotes, invoice: invoices })
    .from(partialCreditNotes)
    .innerJoin(invoices, eq(invoices.id, partialCreditNotes.invoiceId))
    .where(eq(partialCreditNotes.id, creditNoteId))
    .get();
  if (!found) return undefined;
  const { refundPartId: _part, ...creditNote } = found.note;
  return { creditNote, invoice: found.invoice };
}

/** Adds each invoice's part-refund credit notes to a list of a booking's invoices. */
export function withPartCreditNotes<T extends { id: string }>(
  db: Db,
  list: T[],
): (T & { partCreditNotes: { id: string; number: string; totalPaise: number }[] })[] {
  const ids = list.map((i) => i.id);
  const notes =
    ids.length === 0
      ? []
      : db
          .select({
            id: partialCreditNotes.id,
            invoiceId: partialCreditNotes.invoiceId,
            number: partialCreditNotes.number,
            totalPaise: partialCreditNotes.totalPaise,
          })
          .from(partialCreditNotes)
          .where(inArray(partialCreditNotes.invoiceId, ids))
          .orderBy(asc(partialCreditNotes.issuedAt), asc(partialCreditNotes.number))
          .all();
  return list.map((invoice) => ({
    ...invoice,
    partCreditNotes: notes
      .filter((n) => n.invoiceId === invoice.id)
      .map(({ invoiceId: _invoice, ...n }) => n),
  }));
}
