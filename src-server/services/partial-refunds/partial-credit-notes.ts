import { randomUUID } from 'node:crypto';
import { and, desc, eq, notExists, sql } from 'drizzle-orm';
import { changes, row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { InvoiceKind, InvoiceLine } from '../../db/schema/invoices.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { documentNumberSteps } from '../invoices/document-numbers.ts';

/** Amounts already credited on an invoice by part refunds' credit notes. */
export interface CreditedAmounts {
  taxableValuePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
}

const NOTHING: CreditedAmounts = {
  taxableValuePaise: 0,
  cgstPaise: 0,
  sgstPaise: 0,
  igstPaise: 0,
  totalPaise: 0,
};

/**
 * What part refunds have credited on one invoice so far. A whole cancellation afterwards credits only the
 * rest (issue-credit-note.ts), so the notes of an invoice never add up to more than it.
 */
export function creditedByParts(tx: DbOrTx, invoiceId: string): CreditedAmounts {
  return runSync(creditedByPartsSteps(tx, invoiceId));
}

/** `creditedByParts` written once for both engines (ADR 0045). */
export function* creditedByPartsSteps(tx: DbOrTx, invoiceId: string): Steps<CreditedAmounts> {
  const { partialCreditNotes } = tablesOf(tx);
  const credited = yield* row(
    tx
      .select({
        taxableValuePaise: sql<number>`coalesce(sum(${partialCreditNotes.taxableValuePaise}), 0)`,
        cgstPaise: sql<number>`coalesce(sum(${partialCreditNotes.cgstPaise}), 0)`,
        sgstPaise: sql<number>`coalesce(sum(${partialCreditNotes.sgstPaise}), 0)`,
        igstPaise: sql<number>`coalesce(sum(${partialCreditNotes.igstPaise}), 0)`,
        totalPaise: sql<number>`coalesce(sum(${partialCreditNotes.totalPaise}), 0)`,
      })
      .from(partialCreditNotes)
      .where(eq(partialCreditNotes.invoiceId, invoiceId)),
  );
  if (!credited) return NOTHING;
  // Numbers on both engines: PostgreSQL's sum of a bigint is a numeric, which node-postgres gives as text.
  return {
    taxableValuePaise: Number(credited.taxableValuePaise),
    cgstPaise: Number(credited.cgstPaise),
    sgstPaise: Number(credited.sgstPaise),
    igstPaise: Number(credited.igstPaise),
    totalPaise: Number(credited.totalPaise),
  };
}

/**
 * Credit notes for a part refund: for each kind, the booking's current invoice of that kind (the latest
 * one no whole credit note cancelled: a GSTIN re-issue replaces it) is credited exactly the paise given,
 * never more than is left on it. Each tax head is the invoice's head in proportion (rounded to the paisa,
 * CGST and SGST kept equal when the invoice has them equal) and the taxable value is the rest, so the
 * note's total is exactly the amount; the note that uses up an invoice takes whatever is left of each
 * head, so an invoice's notes add up to it to the paisa. No invoice (an organiser without a profile):
 * no note. Numbered in the issuer's one credit-note series. Returns the notes' ids.
 */
export function issuePartialCreditNotes(
  tx: DbOrTx,
  part: { bookingId: string; refundPartId: string; reason: string },
  amounts: Record<InvoiceKind, number>,
  now: Date,
  /**
   * 'tickets': the part is the money of cancelled tickets, so on an invoice with add-on lines at other
   * rates (ADR 0041) the heads follow the ticket lines' rate, not the whole invoice's mix.
   */
  credits: 'tickets' | 'invoice' = 'invoice',
): string[] {
  return runSync(issuePartialCreditNotesSteps(tx as WriteTx, part, amounts, now, credits));
}

/** `issuePartialCreditNotes` written once for both engines (ADR 0045). */
export function* issuePartialCreditNotesSteps(
  tx: WriteTx,
  part: { bookingId: string; refundPartId: string; reason: string },
  amounts: Record<InvoiceKind, number>,
  now: Date,
  credits: 'tickets' | 'invoice' = 'invoice',
): Steps<string[]> {
  const { invoices, creditNotes, partialCreditNotes } = tablesOf(tx);
  const ids: string[] = [];
  for (const kind of ['admission', 'platform_fee'] as const) {
    const wanted = amounts[kind];
    if (wanted <= 0) continue;
    const invoice = yield* row(
      tx
        .select()
        .from(invoices)
        .where(
          and(
            eq(invoices.bookingId, part.bookingId),
            eq(invoices.kind, kind),
            notExists(
              tx.select({ one: sql`1` }).from(creditNotes).where(eq(creditNotes.invoiceId, invoices.id)),
            ),
          ),
        )
        .orderBy(desc(invoices.issuedAt), desc(invoices.number)),
    );
    if (!invoice || invoice.totalPaise <= 0) continue;
    const credited = yield* creditedByPartsSteps(tx, invoice.id);
    const left = invoice.totalPaise - credited.totalPaise;
    const total = Math.min(wanted, left);
    if (total <= 0) continue;
    const base = credits === 'tickets' && kind === 'admission' ? ticketLinesOf(invoice, total) : invoice;
    const heads = total === left ? restOf(invoice, credited) : inProportion(base, total);
    const { number, financialYear } = yield* documentNumberSteps(tx, invoice.issuer, 'credit_note', now);
    const id = randomUUID();
    yield* changes(
      tx.insert(partialCreditNotes).values({
        id,
        invoiceId: invoice.id,
        refundPartId: part.refundPartId,
        issuer: invoice.issuer,
        number,
        financialYear,
        issuedAt: now.toISOString(),
        reason: part.reason,
        ...heads,
        totalPaise: total,
      }),
    );
    ids.push(id);
  }
  return ids;
}

type Heads = Omit<CreditedAmounts, 'totalPaise'>;

/** `total` paise of the invoice: each tax head in the invoice's proportion, the taxable value the rest. */
export function inProportion(
  invoice: { cgstPaise: number; sgstPaise: number; igstPaise: number; totalPaise: number },
  total: number,
): Heads {
  const share = (paise: number) => Math.round((paise * total) / invoice.totalPaise);
  const cgstPaise = share(invoice.cgstPaise);
  const sgstPaise = invoice.sgstPaise === invoice.cgstPaise ? cgstPaise : share(invoice.sgstPaise);
  const igstPaise = share(invoice.igstPaise);
  return { cgstPaise, sgstPaise, igstPaise, taxableValuePaise: total - cgstPaise - sgstPaise - igstPaise };
}

/**
 * The invoice's ticket lines taken together (its add-on lines left out), when they can carry `total`;
 * otherwise the whole invoice. Invoices without add-on lines are their own ticket lines.
 */
function ticketLinesOf(
  invoice: {
    lines: InvoiceLine[];
    cgstPaise: number;
    sgstPaise: number;
    igstPaise: number;
    totalPaise: number;
  },
  total: number,
) {
  const tickets = invoice.lines.filter((line) => !line.addOn);
  if (tickets.length === invoice.lines.length) return invoice;
  const sum = (pick: (line: InvoiceLine) => number) => tickets.reduce((s, line) => s + pick(line), 0);
  const base = {
    cgstPaise: sum((l) => l.cgstPaise),
    sgstPaise: sum((l) => l.sgstPaise),
    igstPaise: sum((l) => l.igstPaise),
    totalPaise: sum((l) => l.totalPaise),
  };
  return base.totalPaise >= total && base.totalPaise > 0 ? base : invoice;
}

function restOf(invoice: Heads, credited: CreditedAmounts): Heads {
  return {
    taxableValuePaise: invoice.taxableValuePaise - credited.taxableValuePaise,
    cgstPaise: invoice.cgstPaise - credited.cgstPaise,
    sgstPaise: invoice.sgstPaise - credited.sgstPaise,
    igstPaise: invoice.igstPaise - credited.igstPaise,
  };
}
