import { and, asc, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import type { BackgroundJob } from '../../background-job.ts';
import type { Db } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import {
  claimDueSteps,
  NO_IRP_CONFIGURED,
  OUTSIDE_WINDOW,
  outsideReportingWindow,
  QUEUE_LOOKBACK_DAYS,
  retryAt,
} from './e-invoice-attempts.ts';
import { buildIrpPayload } from './e-invoice-payload.ts';
import { EInvoiceError } from './e-invoice-provider.ts';
import { type EInvoicedIssuer, eInvoicedIssuersSteps, windowedIssuers } from './e-invoiced-issuers.ts';
import { platformEInvoicingOf } from './platform-gst.ts';
import { registerDueECreditNotes } from './register-e-credit-notes.ts';

export {
  IRP_REPORTING_WINDOW_DAYS,
  MAX_E_INVOICE_ATTEMPTS,
  NO_IRP_CONFIGURED,
  OUTSIDE_WINDOW,
} from './e-invoice-attempts.ts';

const BATCH = 20;

/**
 * Registers the B2B invoices of suppliers under e-invoicing with the IRP (organisers who said so, and the
 * platform's fee invoices when PLATFORM_E_INVOICING_SINCE is set: e-invoiced-issuers.ts): first records a 'pending'
 * registration for each such invoice that has none (so none is missed, however it was issued: at
 * confirmation, owed later, or re-issued with a GSTIN), then sends those due, one at a time, each HTTP
 * call outside any transaction. A failure is stored with the IRP's message (status 'failed', shown to
 * the organiser) and retried with back-off (1, 2, 4 … minutes) until MAX_E_INVOICE_ATTEMPTS; an invoice
 * past the reporting window fails for good, for a supplier the window applies to (AATO ₹10 crore or more). Then does the same for credit notes on e-invoiced invoices
 * (register-e-credit-notes.ts). Returns how many documents were tried.
 */
export async function registerDueEInvoices(
  deps: Pick<AppDeps, 'db' | 'clock' | 'eInvoiceProvider' | 'logger' | 'env'>,
): Promise<number> {
  const { db, clock } = deps;
  const { eInvoiceRegistrations, invoices } = tablesOf(db);
  const issuers = await runStatements(db, (db) => eInvoicedIssuersSteps(db, platformEInvoicingOf(deps.env)));
  await queueNewEInvoices(db, issuers, clock.now());
  const windowed = windowedIssuers(issuers);
  const due = await runStatements(db, (db) =>
    rows(
      db
        .select({ registration: eInvoiceRegistrations, invoice: invoices })
        .from(eInvoiceRegistrations)
        .innerJoin(invoices, eq(invoices.id, eInvoiceRegistrations.invoiceId))
        .where(
          and(
            inArray(eInvoiceRegistrations.status, ['pending', 'failed']),
            lte(eInvoiceRegistrations.nextAttemptAt, clock.now().toISOString()),
          ),
        )
        .orderBy(asc(eInvoiceRegistrations.nextAttemptAt))
        .limit(BATCH),
    ),
  );
  let tried = 0;
  for (const { registration, invoice } of due) {
    const attempts = registration.attempts + 1;
    const now = clock.now();
    const claim = claimDueSteps(eInvoiceRegistrations, eq(eInvoiceRegistrations.invoiceId, invoice.id));
    if (!(await runStatements(db, (db) => claim(db, registration.nextAttemptAt, now)))) continue;
    tried += 1;
    if (outsideReportingWindow(invoice.issuedAt, now, windowed.has(registration.issuer))) {
      await recordFailure(db, invoice.id, attempts, OUTSIDE_WINDOW, null, now);
      continue;
    }
    if (!deps.eInvoiceProvider) {
      await recordFailure(db, invoice.id, attempts, NO_IRP_CONFIGURED, retryAt(attempts, now), now);
      continue;
    }
    try {
      const registered = await deps.eInvoiceProvider.register(
        buildIrpPayload(invoice),
        invoice.supplierGstin!,
      );
      const at = clock.now().toISOString();
      await runnerFor(db).write(function* (tx) {
        const { eInvoiceRegistrations } = tablesOf(tx);
        yield* changes(
          tx
            .update(eInvoiceRegistrations)
            .set({
              status: 'registered',
              attempts,
              nextAttemptAt: null,
              lastError: null,
              ...registered,
              updatedAt: at,
            })
            .where(eq(eInvoiceRegistrations.invoiceId, invoice.id)),
        );
      });
    } catch (err) {
      if (!(err instanceof EInvoiceError))
        deps.logger.error({ err, invoiceId: invoice.id }, 'e-invoice failed');
      const message = err instanceof EInvoiceError ? err.message : 'Unexpected error while registering';
      await recordFailure(db, invoice.id, attempts, message, retryAt(attempts, clock.now()), clock.now());
    }
  }
  // Then the credit notes on e-invoiced invoices (CRN), after their invoices, so a note whose invoice
  // was registered in this run goes in the same run.
  return tried + (await registerDueECreditNotes(deps, issuers));
}

/** Runs every 30 s in the job process; also at start-up (invoices issued while the server was down). */
export const eInvoicingJob: BackgroundJob = {
  name: 'e-invoicing',
  intervalMs: 30_000,
  runAtStart: true,
  run: async (deps) => {
    const tried = await registerDueEInvoices(deps);
    if (tried > 0) deps.logger.info({ tried }, 'e-invoices sent to the IRP');
  },
};

/**
 * A 'pending' registration for each invoice that needs an IRN and has none: a B2B tax invoice of a
 * supplier under e-invoicing (an organiser's admission invoice, or the platform's fee invoice), issued
 * since e-invoicing applied to it. Each supplier's invoices are read through its partial index on
 * (issuer, issued_at) from QUEUE_LOOKBACK_DAYS ago at most, so a run reads a bounded range and never the
 * B2C invoices; anything queued past a reporting window that applies fails visibly (OUTSIDE_WINDOW).
 */
async function queueNewEInvoices(db: Db, issuers: EInvoicedIssuer[], now: Date): Promise<void> {
  const lookback = new Date(now.getTime() - QUEUE_LOOKBACK_DAYS * 86_400_000).toISOString();
  const missing = await runStatements(db, function* (db) {
    const { eInvoiceRegistrations, invoices } = tablesOf(db);
    const found: { id: string; issuer: string }[] = [];
    for (const { issuer, since, needsIrn } of issuers) {
      found.push(
        ...(yield* rows(
          db
            .select({ id: invoices.id, issuer: invoices.issuer })
            .from(invoices)
            .leftJoin(eInvoiceRegistrations, eq(eInvoiceRegistrations.invoiceId, invoices.id))
            .where(
              and(
                eq(invoices.issuer, issuer),
                gte(invoices.issuedAt, since > lookback ? since : lookback),
                // Written as the partial index's own condition (literals, not parameters), so SQLite uses it.
                needsIrn,
                isNull(eInvoiceRegistrations.invoiceId),
              ),
            ),
        )),
      );
    }
    return found;
  });
  if (missing.length === 0) return;
  const at = now.toISOString();
  // Two servers' jobs may queue the same invoice: its key keeps one row (ON CONFLICT DO NOTHING).
  await runnerFor(db).write(function* (tx) {
    const { eInvoiceRegistrations } = tablesOf(tx);
    for (const row of missing) {
      yield* changes(
        tx
          .insert(eInvoiceRegistrations)
          .values({
            invoiceId: row.id,
            issuer: row.issuer,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: at,
            createdAt: at,
            updatedAt: at,
          })
          .onConflictDoNothing(),
      );
    }
  });
}

async function recordFailure(
  db: Db,
  invoiceId: string,
  attempts: number,
  message: string,
  nextAttemptAt: string | null,
  now: Date,
) {
  await runnerFor(db).write(function* (tx) {
    const { eInvoiceRegistrations } = tablesOf(tx);
    yield* changes(
      tx
        .update(eInvoiceRegistrations)
        .set({
          status: 'failed',
          attempts,
          lastError: message.slice(0, 1000),
          nextAttemptAt,
          updatedAt: now.toISOString(),
        })
        .where(eq(eInvoiceRegistrations.invoiceId, invoiceId)),
    );
  });
}
