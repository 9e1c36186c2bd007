/**
 * The e-invoicing job's limits, shared by invoices (register-e-invoices.ts) and credit notes
 * (register-e-credit-notes.ts), so both are retried and given up on alike.
 */

/** Tries before the job stops retrying by itself (the organiser may retry from their profile page). */
export const MAX_E_INVOICE_ATTEMPTS = 8;
/** The IRP refuses invoices older than this (for turnover of ₹10 crore and more, since 1 Apr 2025). */
export const IRP_REPORTING_WINDOW_DAYS = 30;
export const NO_IRP_CONFIGURED =
  'This Jalsa server has no IRP connection (EINVOICE_IRP_URL and EINVOICE_IRP_TOKEN): ask its operator to set it up.';
export const OUTSIDE_WINDOW = `Not registered within the IRP's ${IRP_REPORTING_WINDOW_DAYS}-day reporting window: the IRP no longer accepts it. Cancel it with a credit note and issue a new invoice.`;

/** How far back each run looks for documents not yet queued: twice the window, for a job stopped a while. */
export const QUEUE_LOOKBACK_DAYS = 2 * IRP_REPORTING_WINDOW_DAYS;

/** Back-off: 1 minute after the first failure, doubling, until the attempts run out (then null). */
export function retryAt(attempts: number, now: Date): string | null {
  if (attempts >= MAX_E_INVOICE_ATTEMPTS) return null;
  return new Date(now.getTime() + 60_000 * 2 ** (attempts - 1)).toISOString();
}

export const CREDIT_NOTE_OUTSIDE_WINDOW = `Not registered within the IRP's ${IRP_REPORTING_WINDOW_DAYS}-day reporting window: the IRP no longer accepts this credit note. Report it in GSTR-1 as it is and ask your accountant how to correct it.`;
