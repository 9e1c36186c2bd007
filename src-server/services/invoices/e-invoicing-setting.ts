import { and, desc, eq, inArray } from 'drizzle-orm';
import { E_INVOICING_MESSAGES, type EInvoicingSetting } from '../../../shared/e-invoicing-schemas.ts';
import { pinOf } from '../../../shared/indian-pin.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { CreditNoteKind, EInvoiceStatus } from '../../db/schema/e-invoices.ts';
import { PLATFORM_ISSUER } from '../../db/schema/invoices.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { PlatformEInvoicing } from './e-invoiced-issuers.ts';
import type { EInvoiceStamp } from './invoice-pdf.ts';
import { creditNoteSteps } from './register-e-credit-notes.ts';

export interface EInvoicingState {
  applies: boolean;
  /** From when their B2B invoices are registered with the IRP. */
  since: string | null;
  /** Aggregate annual turnover of ₹10 crore or more: the IRP's 30-day reporting window applies. */
  aatoTenCroreOrMore: boolean;
  /** Whether this server can reach an IRP at all. */
  providerConfigured: boolean;
  /** Invoices still without an IRN, newest first (at most 50): waiting, or failed with the IRP's message. */
  notRegistered: {
    invoiceId: string;
    number: string;
    issuedAt: string;
    status: Exclude<EInvoiceStatus, 'registered'>;
    attempts: number;
    lastError: string | null;
    /** Null when the job has stopped retrying by itself: the organiser may retry. */
    nextAttemptAt: string | null;
  }[];
  /**
   * Credit notes on e-invoiced invoices still without an IRN (document type CRN), newest first (at most
   * 50): as above, and `waitingForInvoice` while the invoice they credit has no IRN yet.
   */
  creditNotesNotRegistered: {
    creditNoteId: string;
    kind: CreditNoteKind;
    number: string;
    invoiceNumber: string;
    issuedAt: string;
    status: Exclude<EInvoiceStatus, 'registered'>;
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string | null;
    waitingForInvoice: boolean;
  }[];
}

/** The organiser's e-invoicing setting and what has not been registered yet. */
export function getEInvoicing(db: Db, userId: string, providerConfigured: boolean): Promise<EInvoicingState> {
  return runStatements(db, function* (db) {
    const { organiserProfiles } = tablesOf(db);
    const profile = yield* row(
      db
        .select({ since: organiserProfiles.eInvoicingSince, aato: organiserProfiles.aatoTenCroreOrMore })
        .from(organiserProfiles)
        .where(eq(organiserProfiles.userId, userId)),
    );
    return {
      applies: Boolean(profile?.since),
      since: profile?.since ?? null,
      aatoTenCroreOrMore: profile?.aato ?? false,
      providerConfigured,
      ...(yield* notRegisteredSteps(db, userId)),
    };
  });
}

/**
 * The platform's own e-invoicing (PLATFORM_E_INVOICING_SINCE, for the admin): the setting, and its fee
 * invoices and their credit notes not registered yet, listed exactly as an organiser's.
 */
export function getPlatformEInvoicing(
  db: Db,
  platform: PlatformEInvoicing,
  providerConfigured: boolean,
): Promise<EInvoicingState> {
  return runStatements(db, function* (db) {
    return {
      applies: platform.since !== null,
      since: platform.since,
      aatoTenCroreOrMore: platform.reportingWindow,
      providerConfigured,
      ...(yield* notRegisteredSteps(db, PLATFORM_ISSUER)),
    };
  });
}

/** One issuer's invoices and credit notes without an IRN (waiting or failed), newest first. */
function* notRegisteredSteps(
  db: DbOrTx,
  issuer: string,
): Steps<Pick<EInvoicingState, 'notRegistered' | 'creditNotesNotRegistered'>> {
  const { eCreditNoteRegistrations, eInvoiceRegistrations, invoices } = tablesOf(db);
  const pending = yield* rows(
    db
      .select({
        invoiceId: invoices.id,
        number: invoices.number,
        issuedAt: invoices.issuedAt,
        status: eInvoiceRegistrations.status,
        attempts: eInvoiceRegistrations.attempts,
        lastError: eInvoiceRegistrations.lastError,
        nextAttemptAt: eInvoiceRegistrations.nextAttemptAt,
      })
      .from(eInvoiceRegistrations)
      .innerJoin(invoices, eq(invoices.id, eInvoiceRegistrations.invoiceId))
      .where(
        and(
          eq(eInvoiceRegistrations.issuer, issuer),
          inArray(eInvoiceRegistrations.status, ['pending', 'failed']),
        ),
      )
      .orderBy(desc(invoices.issuedAt))
      .limit(50),
  );
  const notes = yield* rows(
    db
      .select({
        creditNoteId: eCreditNoteRegistrations.creditNoteId,
        kind: eCreditNoteRegistrations.kind,
        invoiceNumber: invoices.number,
        status: eCreditNoteRegistrations.status,
        attempts: eCreditNoteRegistrations.attempts,
        lastError: eCreditNoteRegistrations.lastError,
        nextAttemptAt: eCreditNoteRegistrations.nextAttemptAt,
        createdAt: eCreditNoteRegistrations.createdAt,
        invoiceStatus: eInvoiceRegistrations.status,
      })
      .from(eCreditNoteRegistrations)
      .innerJoin(invoices, eq(invoices.id, eCreditNoteRegistrations.invoiceId))
      .leftJoin(
        eInvoiceRegistrations,
        eq(eInvoiceRegistrations.invoiceId, eCreditNoteRegistrations.invoiceId),
      )
      .where(
        and(
          eq(eCreditNoteRegistrations.issuer, issuer),
          inArray(eCreditNoteRegistrations.status, ['pending', 'failed']),
        ),
      )
      .orderBy(desc(eCreditNoteRegistrations.createdAt))
      .limit(50),
  );
  const creditNotesNotRegistered: EInvoicingState['creditNotesNotRegistered'] = [];
  for (const { createdAt: _at, invoiceStatus, ...r } of notes) {
    const note = yield* creditNoteSteps(db, r.kind, r.creditNoteId);
    if (!note) continue;
    creditNotesNotRegistered.push({
      ...r,
      number: note.number,
      issuedAt: note.issuedAt,
      status: r.status as 'pending' | 'failed',
      waitingForInvoice: invoiceStatus !== 'registered',
    });
  }
  return {
    notRegistered: pending.map((r) => ({ ...r, status: r.status as 'pending' | 'failed' })),
    creditNotesNotRegistered,
  };
}

/**
 * "E-invoicing applies to me": from now on the organiser's B2B tax invoices are registered with the IRP
 * (invoices issued before stay as they are). Turning it on again keeps the first date. Needs a GSTIN,
 * and a PIN code in the profile's address (shared/indian-pin.ts): the IRP's schema 1.1 requires the
 * seller's PIN, so without one every invoice would be refused after all its retries, and an issued
 * invoice cannot be changed. The turnover answer (₹10 crore or more: the reporting window applies) is
 * stored with it; omitted, the one stored is kept.
 */
export async function setEInvoicing(
  db: Db,
  userId: string,
  setting: EInvoicingSetting,
  now: Date,
): Promise<void> {
  await runnerFor(db).write(function* (tx) {
    const { organiserProfiles } = tablesOf(tx);
    const profile = yield* row(
      tx
        .select({
          gstin: organiserProfiles.gstin,
          address: organiserProfiles.address,
          since: organiserProfiles.eInvoicingSince,
        })
        .from(organiserProfiles)
        .where(eq(organiserProfiles.userId, userId)),
    );
    if (setting.applies && !profile?.gstin) throw badRequest(E_INVOICING_MESSAGES.needsGstin);
    if (!profile) return;
    if (setting.applies && pinOf(profile.address) === null) {
      throw badRequest(E_INVOICING_MESSAGES.needsPin, { applies: E_INVOICING_MESSAGES.needsPin });
    }
    yield* changes(
      tx
        .update(organiserProfiles)
        .set({
          eInvoicingSince: setting.applies ? (profile.since ?? now.toISOString()) : null,
          ...(setting.aatoTenCroreOrMore === undefined
            ? {}
            : { aatoTenCroreOrMore: setting.aatoTenCroreOrMore }),
        })
        .where(eq(organiserProfiles.userId, userId)),
    );
  });
}

/**
 * Sends one of the issuer's failed invoices, or credit notes (`{ creditNoteId }`), to the IRP again on
 * the job's next run, attempts anew. The issuer is the organiser calling, or PLATFORM_ISSUER for an
 * admin; another issuer's document is not found.
 */
export async function retryEInvoice(
  db: Db,
  issuer: string,
  target: { invoiceId: string } | { creditNoteId: string },
  now: Date,
): Promise<void> {
  await runnerFor(db).write(function* (tx) {
    const { eCreditNoteRegistrations, eInvoiceRegistrations } = tablesOf(tx);
    const table = 'invoiceId' in target ? eInvoiceRegistrations : eCreditNoteRegistrations;
    const key =
      'invoiceId' in target
        ? eq(eInvoiceRegistrations.invoiceId, target.invoiceId)
        : eq(eCreditNoteRegistrations.creditNoteId, target.creditNoteId);
    const found = yield* row(
      tx
        .select({ status: table.status })
        .from(table)
        .where(and(key, eq(table.issuer, issuer))),
    );
    if (!found) throw notFound(E_INVOICING_MESSAGES.notFound);
    if (found.status === 'registered') throw badRequest(E_INVOICING_MESSAGES.alreadyRegistered);
    yield* changes(
      tx
        .update(table)
        .set({ attempts: 0, nextAttemptAt: now.toISOString(), updatedAt: now.toISOString() })
        .where(key),
    );
  });
}

/** The IRN, acknowledgement and signed QR of a registered invoice, for its PDF; null otherwise. */
export async function eInvoiceStampOf(db: Db | DbOrTx, invoiceId: string): Promise<EInvoiceStamp | null> {
  const { eInvoiceRegistrations } = tablesOf(db);
  const [row] = await db
    .select({
      irn: eInvoiceRegistrations.irn,
      ackNumber: eInvoiceRegistrations.ackNumber,
      ackDate: eInvoiceRegistrations.ackDate,
      signedQrCode: eInvoiceRegistrations.signedQrCode,
    })
    .from(eInvoiceRegistrations)
    .where(
      and(eq(eInvoiceRegistrations.invoiceId, invoiceId), eq(eInvoiceRegistrations.status, 'registered')),
    );
  if (!row?.irn || !row.ackNumber || !row.ackDate || !row.signedQrCode) return null;
  return { irn: row.irn, ackNumber: row.ackNumber, ackDate: row.ackDate, signedQrCode: row.signedQrCode };
}

/** The IRN, acknowledgement and signed QR of a registered credit note (CRN), for its PDF; null otherwise. */
export async function eCreditNoteStampOf(
  db: Db | DbOrTx,
  creditNoteId: string,
): Promise<EInvoiceStamp | null> {
  const { eCreditNoteRegistrations } = tablesOf(db);
  const [row] = await db
    .select({
      irn: eCreditNoteRegistrations.irn,
      ackNumber: eCreditNoteRegistrations.ackNumber,
      ackDate: eCreditNoteRegistrations.ackDate,
      signedQrCode: eCreditNoteRegistrations.signedQrCode,
    })
    .from(eCreditNoteRegistrations)
    .where(
      and(
        eq(eCreditNoteRegistrations.creditNoteId, creditNoteId),
        eq(eCreditNoteRegistrations.status, 'registered'),
      ),
    );
  if (!row?.irn || !row.ackNumber || !row.ackDate || !row.signedQrCode) return null;
  return { irn: row.irn, ackNumber: row.ackNumber, ackDate: row.ackDate, signedQrCode: row.signedQrCode };
}
