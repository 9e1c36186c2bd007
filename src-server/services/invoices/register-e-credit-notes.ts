import { and, asc, eq, gte, inArray, lte, notExists, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { CreditNoteKind } from '../../db/schema/e-invoices.ts';
import type { AppDeps } from '../../deps.ts';
import {
  CREDIT_NOTE_OUTSIDE_WINDOW,
  claimDueSteps,
  NO_IRP_CONFIGURED,
  outsideReportingWindow,
  QUEUE_LOOKBACK_DAYS,
  retryAt,
} from './e-invoice-attempts.ts';
import { buildIrpCreditNotePayload } from './e-invoice-payload.ts';
import { EInvoiceError } from './e-invoice-provider.ts';
import { type EInvoicedIssuer, eInvoicedIssuersSteps, windowedIssuers } from './e-invoiced-issuers.ts';
import type { CreditNoteRow } from './invoice-pdf.ts';
import { platformEInvoicingOf } from './platform-gst.ts';

const BATCH = 20;

/**
 * Registers with the IRP, as document type CRN, the credit notes (whole and part) on invoices that
 * needed e-invoicing: the same suppliers and predicate as the invoices (e-invoiced-issuers.ts: an
 * organiser's admission tax invoice between two GSTINs, or the platform's B2B fee invoice, issued since
 * e-invoicing applied), so a B2C note is never sent. First
 * queues a 'pending' row for each such note without one, then sends those due whose invoice has its
 * IRN (the IRP's credit note names the invoice it credits; a note waits, listed as waiting, while its
 * invoice is not registered). Same back-off, attempts and reporting window (from the note's own date)
 * as invoices. Called by the e-invoicing job after the invoices (register-e-invoices.ts). Returns how
 * many were tried.
 */
export async function registerDueECreditNotes(
  deps: Pick<AppDeps, 'db' | 'clock' | 'eInvoiceProvider' | 'logger' | 'env'>,
  // The invoices' run passes the list it read, so one job run reads it once.
  issuersRead?: EInvoicedIssuer[],
): Promise<number> {
  const { db, clock } = deps;
  const { eCreditNoteRegistrations, eInvoiceRegistrations, invoices } = tablesOf(db);
  const issuers =
    issuersRead ??
    (await runStatements(db, (db) => eInvoicedIssuersSteps(db, platformEInvoicingOf(deps.env))));
  await queueNewECreditNotes(db, issuers, clock.now());
  const windowed = windowedIssuers(issuers);
  const due = await runStatements(db, (db) =>
    rows(
      db
        .select({ registration: eCreditNoteRegistrations, invoice: invoices })
        .from(eCreditNoteRegistrations)
        .innerJoin(invoices, eq(invoices.id, eCreditNoteRegistrations.invoiceId))
        .innerJoin(
          eInvoiceRegistrations,
          eq(eInvoiceRegistrations.invoiceId, eCreditNoteRegistrations.invoiceId),
        )
        .where(
          and(
            inArray(eCreditNoteRegistrations.status, ['pending', 'failed']),
            lte(eCreditNoteRegistrations.nextAttemptAt, clock.now().toISOString()),
            eq(eInvoiceRegistrations.status, 'registered'),
          ),
        )
        .orderBy(asc(eCreditNoteRegistrations.nextAttemptAt))
        .limit(BATCH),
    ),
  );
  let tried = 0;
  for (const { registration, invoice } of due) {
    const id = registration.creditNoteId;
    const attempts = registration.attempts + 1;
    const note = await runStatements(db, (db) => creditNoteSteps(db, registration.kind, id));
    const now = clock.now();
    if (!note) continue;
    const claim = claimDueSteps(eCreditNoteRegistrations, eq(eCreditNoteRegistrations.creditNoteId, id));
    if (!(await runStatements(db, (db) => claim(db, registration.nextAttemptAt, now)))) continue;
    tried += 1;
    if (outsideReportingWindow(note.issuedAt, now, windowed.has(registration.issuer))) {
      await recordFailure(db, id, attempts, CREDIT_NOTE_OUTSIDE_WINDOW, null, now);
      continue;
    }
    if (!deps.eInvoiceProvider) {
      await recordFailure(db, id, attempts, NO_IRP_CONFIGURED, retryAt(attempts, now), now);
      continue;
    }
    try {
      const registered = await deps.eInvoiceProvider.register(
        buildIrpCreditNotePayload(invoice, note),
        invoice.supplierGstin!,
      );
      const at = clock.now().toISOString();
      await runnerFor(db).write(function* (tx) {
        const { eCreditNoteRegistrations } = tablesOf(tx);
        yield* changes(
          tx
            .update(eCreditNoteRegistrations)
            .set({
              status: 'registered',
              attempts,
              nextAttemptAt: null,
              lastError: null,
              ...registered,
              updatedAt: at,
            })
            .where(eq(eCreditNoteRegistrations.creditNoteId, id)),
        );
      });
    } catch (err) {
      if (!(err instanceof EInvoiceError))
        deps.logger.error({ err, creditNoteId: id }, 'e-credit note failed');
      const message = err instanceof EInvoiceError ? err.message : 'Unexpected error while registering';
      await recordFailure(db, id, attempts, message, retryAt(attempts, clock.now()), clock.now());
    }
  }
  return tried;
}

/** The stored credit note, from the table its registration's kind names. */
export function* creditNoteSteps(
  db: DbOrTx,
  kind: CreditNoteKind,
  id: string,
): Steps<CreditNoteRow | undefined> {
  const { creditNotes, partialCreditNotes } = tablesOf(db);
  if (kind === 'whole') return yield* row(db.select().from(creditNotes).where(eq(creditNotes.id, id)));
  const part = yield* row(db.select().from(partialCreditNotes).where(eq(partialCreditNotes.id, id)));
  if (!part) return undefined;
  const { refundPartId: _part, ...note } = part;
  return note;
}

/**
 * A 'pending' row for each credit note, whole or part, of a supplier under e-invoicing (an organiser or
 * the platform), issued in the last QUEUE_LOOKBACK_DAYS (and since e-invoicing applied), on an invoice
 * that needed e-invoicing, without one yet. Read through each note table's (issuer, issued_at) index;
 * the invoice by its key.
 */
async function queueNewECreditNotes(db: Db, issuers: EInvoicedIssuer[], now: Date): Promise<void> {
  const lookback = new Date(now.getTime() - QUEUE_LOOKBACK_DAYS * 86_400_000).toISOString();
  const missing = await runStatements(db, function* (db) {
    const { creditNotes, eCreditNoteRegistrations, invoices, partialCreditNotes } = tablesOf(db);
    const found: { id: string; kind: CreditNoteKind; invoiceId: string; issuer: string }[] = [];
    for (const { issuer, since, needsIrn } of issuers) {
      const from = since > lookback ? since : lookback;
      for (const [kind, table] of [
        ['whole', creditNotes],
        ['part', partialCreditNotes],
      ] as const) {
        const notes = yield* rows(
          db
            .select({ id: table.id, invoiceId: table.invoiceId, issuer: table.issuer })
            .from(table)
            .innerJoin(invoices, eq(invoices.id, table.invoiceId))
            .where(
              and(
                eq(table.issuer, issuer),
                gte(table.issuedAt, from),
                // The invoices' own predicate (unqualified columns only invoices has): B2B, issued since
                // e-invoicing applied to the supplier.
                needsIrn,
                gte(invoices.issuedAt, since),
                notExists(
                  db
                    .select({ one: sql`1` })
                    .from(eCreditNoteRegistrations)
                    .where(eq(eCreditNoteRegistrations.creditNoteId, table.id)),
                ),
              ),
            ),
        );
        for (const note of notes) found.push({ ...note, kind });
      }
    }
    return found;
  });
  if (missing.length === 0) return;
  const at = now.toISOString();
  // Two servers' jobs may queue the same note: its key keeps one row (ON CONFLICT DO NOTHING).
  await runnerFor(db).write(function* (tx) {
    const { eCreditNoteRegistrations } = tablesOf(tx);
    for (const note of missing) {
      yield* changes(
        tx
          .insert(eCreditNoteRegistrations)
          .values({
            creditNoteId: note.id,
            kind: note.kind,
            invoiceId: note.invoiceId,
            issuer: note.issuer,
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
  creditNoteId: string,
  attempts: number,
  message: string,
  nextAttemptAt: string | null,
  now: Date,
) {
  await runnerFor(db).write(function* (tx) {
    const { eCreditNoteRegistrations } = tablesOf(tx);
    yield* changes(
      tx
        .update(eCreditNoteRegistrations)
        .set({
          status: 'failed',
          attempts,
          lastError: message.slice(0, 1000),
          nextAttemptAt,
          updatedAt: now.toISOString(),
        })
        .where(eq(eCreditNoteRegistrations.creditNoteId, creditNoteId)),
    );
  });
}
