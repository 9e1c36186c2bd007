import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { RefundPolicy } from '../../../shared/refund-policy.ts';
import { changes, row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { InvoiceKind } from '../../db/schema/invoices.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { creditedByPartsSteps } from '../partial-refunds/partial-credit-notes.ts';
import { documentNumberSteps } from './document-numbers.ts';

/**
 * How much of each kind of invoice a cancellation credits, from 0 (kept whole) to 1 (credited whole). A
 * credit note reduces the value of the supply by what was given back: the convenience fee a 'minus_fee'
 * refund keeps stays invoiced, and a percentage refund credits that share of each invoice.
 */
export type CreditShare = Record<InvoiceKind, number>;

export const WHOLE_CREDIT: CreditShare = { admission: 1, platform_fee: 1 };

/** What a buyer's own cancellation under the event's refund policy credits (shared/refund-policy.ts). */
export function creditShareFor(policy: RefundPolicy): CreditShare {
  if (policy.rule === 'minus_fee') return { admission: 1, platform_fee: 0 };
  if (policy.rule === 'percent') {
    const share = (policy.percent ?? 100) / 100;
    return { admission: share, platform_fee: share };
  }
  return WHOLE_CREDIT;
}

/**
 * Credit notes for the invoices of a cancelled booking, each referring to its invoice: the invoice's
 * amounts times its kind's share (WHOLE_CREDIT copies them exactly; a share of 0 issues no note, the
 * invoice stands). Each tax is rounded to the paisa on its own and the total is their sum, so a note
 * always adds up. Meant to run inside the cancellation's write transaction; a second call finds the notes
 * already issued and issues nothing (credit_notes.invoice_id is unique). Returns the ids of the credit
 * notes that exist for the booking afterwards.
 */
export function issueCreditNotes(
  tx: DbOrTx,
  bookingId: string,
  reason: string,
  now: Date,
  share: CreditShare = WHOLE_CREDIT,
): string[] {
  return runSync(issueCreditNotesSteps(tx as WriteTx, bookingId, reason, now, share));
}

/**
 * `issueCreditNotes` written once for both engines (ADR 0045): each note numbered by
 * `documentNumberSteps` in the same transaction, so a note that rolls back gives its number back.
 */
export function* issueCreditNotesSteps(
  tx: WriteTx,
  bookingId: string,
  reason: string,
  now: Date,
  share: CreditShare = WHOLE_CREDIT,
): Steps<string[]> {
  const { invoices, creditNotes } = tablesOf(tx);
  // In kind order (admission, then the platform's fee), as a part refund's notes take them: on PostgreSQL
  // two transactions then lock the issuers' counters in the same order and never deadlock.
  const issued = yield* rows(
    tx
      .select()
      .from(invoices)
      .where(eq(invoices.bookingId, bookingId))
      .orderBy(asc(invoices.kind), asc(invoices.number)),
  );
  const ids: string[] = [];
  for (const invoice of issued) {
    const existing = yield* row(
      tx.select({ id: creditNotes.id }).from(creditNotes).where(eq(creditNotes.invoiceId, invoice.id)),
    );
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const fraction = share[invoice.kind];
    if (fraction <= 0) continue;
    // What part refunds' notes credited already is not credited again (ADR 0043).
    const credited = yield* creditedByPartsSteps(tx, invoice.id);
    const part = (paise: number, already: number) =>
      Math.max(0, (fraction >= 1 ? paise : Math.round(paise * fraction)) - already);
    const amounts = {
      taxableValuePaise: part(invoice.taxableValuePaise, credited.taxableValuePaise),
      cgstPaise: part(invoice.cgstPaise, credited.cgstPaise),
      sgstPaise: part(invoice.sgstPaise, credited.sgstPaise),
      igstPaise: part(invoice.igstPaise, credited.igstPaise),
    };
    const noteTotal =
      fraction >= 1 && credited.totalPaise === 0
        ? invoice.totalPaise
        : amounts.taxableValuePaise + amounts.cgstPaise + amounts.sgstPaise + amounts.igstPaise;
    if (noteTotal <= 0) continue;
    const issuer = invoice.issuer;
    const { number, financialYear } = yield* documentNumberSteps(tx, issuer, 'credit_note', now);
    const id = randomUUID();
    yield* changes(
      tx.insert(creditNotes).values({
        id,
        invoiceId: invoice.id,
        issuer,
        number,
        financialYear,
        issuedAt: now.toISOString(),
        reason,
        ...amounts,
        totalPaise: noteTotal,
      }),
    );
    ids.push(id);
  }
  return ids;
}
