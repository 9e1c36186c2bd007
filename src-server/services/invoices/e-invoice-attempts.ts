import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { changes, type Steps } from '../../db/engine/steps.ts';
import type { Tables } from '../../db/engine/tables.ts';

/**
 * The e-invoicing job's limits, shared by invoices (register-e-invoices.ts) and credit notes
 * (register-e-credit-notes.ts), so both are retried and given up on alike.
 */

/** Tries before the job stops retrying by itself (the organiser may retry from their profile page). */
export const MAX_E_INVOICE_ATTEMPTS = 8;
/**
 * The IRP refuses documents older than this from a supplier whose aggregate annual turnover (AATO) is
 * ₹10 crore or more (GSTN advisory, from 1 Apr 2025). E-invoicing starts at ₹5 crore: a supplier below
 * ₹10 crore has no such window, so the job gives up by itself only for those who said they are at or
 * above it (`outsideReportingWindow`).
 */
export const IRP_REPORTING_WINDOW_DAYS = 30;
export const NO_IRP_CONFIGURED =
  'This Jalsa server has no IRP connection (EINVOICE_IRP_URL and EINVOICE_IRP_TOKEN): ask its operator to set it up.';
export const OUTSIDE_WINDOW = `Not registered within the IRP's ${IRP_REPORTING_WINDOW_DAYS}-day reporting window: the IRP no longer accepts it. Cancel it with a credit note and issue a new invoice.`;

/**
 * Whether a document issued at `issuedAt` is past the IRP's reporting window now: only for a supplier
 * the window applies to (`reportingWindow`: AATO ₹10 crore or more, e-invoiced-issuers.ts). For any
 * other the IRP decides, and a refusal is recorded with its own message.
 */
export function outsideReportingWindow(issuedAt: string, now: Date, reportingWindow: boolean): boolean {
  return (
    reportingWindow && now.getTime() - new Date(issuedAt).getTime() > IRP_REPORTING_WINDOW_DAYS * 86_400_000
  );
}

/** How far back each run looks for documents not yet queued: twice the window, for a job stopped a while. */
export const QUEUE_LOOKBACK_DAYS = 2 * IRP_REPORTING_WINDOW_DAYS;

/** Back-off: 1 minute after the first failure, doubling, until the attempts run out (then null). */
export function retryAt(attempts: number, now: Date): string | null {
  if (attempts >= MAX_E_INVOICE_ATTEMPTS) return null;
  return new Date(now.getTime() + 60_000 * 2 ** (attempts - 1)).toISOString();
}

export const CREDIT_NOTE_OUTSIDE_WINDOW = `Not registered within the IRP's ${IRP_REPORTING_WINDOW_DAYS}-day reporting window: the IRP no longer accepts this credit note. Report it in GSTR-1 as it is and ask your accountant how to correct it.`;

/** How long a job owns a registration while it talks to the IRP; after that (its server died) it is due again. */
export const E_INVOICE_CLAIM_MS = 5 * 60_000;

type Registrations = Tables['eInvoiceRegistrations'] | Tables['eCreditNoteRegistrations'];

/**
 * Claims a due registration (an invoice's or a credit note's) before the IRP is called, on either
 * engine: one conditional UPDATE moves its next attempt past the claim's lease, on the condition that it
 * is still due at the time this job read. Of two servers' jobs that read the same batch, one claims it
 * and calls the IRP; the other changes nothing and passes on, so a document is never sent twice at once
 * (the IRP would refuse the second as a duplicate IRN and it would show as failed). `table` and `key`
 * are the engine's own (`tablesOf(db)`).
 */
export function claimDueSteps(table: Registrations, key: SQL | undefined) {
  return function* (db: DbOrTx, readDueAt: string | null, now: Date): Steps<boolean> {
    if (readDueAt === null) return false;
    const claimed = yield* changes(
      db
        .update(table)
        .set({
          nextAttemptAt: new Date(now.getTime() + E_INVOICE_CLAIM_MS).toISOString(),
          updatedAt: now.toISOString(),
        })
        .where(and(key, inArray(table.status, ['pending', 'failed']), eq(table.nextAttemptAt, readDueAt))),
    );
    return claimed === 1;
  };
}
