import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { creditNotes, invoices } from '../../db/schema/invoices.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { allocateDocumentNumber } from './document-numbers.ts';

/**
 * Credit notes for every invoice of a cancelled booking, each referring to its invoice and copying its
 * amounts (a whole cancellation). Meant to run inside the cancellation's write transaction; a second
 * call finds the notes already issued and issues nothing (credit_notes.invoice_id is unique).
 * Returns the ids of the credit notes that exist for the booking afterwards.
 */
export function issueCreditNotes(tx: DbOrTx, bookingId: string, reason: string, now: Date): string[] {
  const issued = tx.select().from(invoices).where(eq(invoices.bookingId, bookingId)).all();
  const ids: string[] = [];
  for (const invoice of issued) {
    const existing = tx
      .select({ id: creditNotes.id })
      .from(creditNotes)
      .where(eq(creditNotes.invoiceId, invoice.id))
      .get();
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const issuer = invoice.issuer;
    const { number, financialYear } = allocateDocumentNumber(tx, issuer, 'credit_note', now);
    const id = randomUUID();
    tx.insert(creditNotes)
      .values({
        id,
        invoiceId: invoice.id,
        issuer,
        number,
        financialYear,
        issuedAt: now.toISOString(),
        reason,
        taxableValuePaise: invoice.taxableValuePaise,
        cgstPaise: invoice.cgstPaise,
        sgstPaise: invoice.sgstPaise,
        igstPaise: invoice.igstPaise,
        totalPaise: invoice.totalPaise,
      })
      .run();
    ids.push(id);
  }
  return ids;
}
