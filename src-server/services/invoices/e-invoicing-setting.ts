import { and, desc, eq, inArray } from 'drizzle-orm';
import { E_INVOICING_MESSAGES } from '../../../shared/e-invoicing-schemas.ts';
import type { Db } from '../../db/client.ts';
import { type EInvoiceStatus, eInvoiceRegistrations } from '../../db/schema/e-invoices.ts';
import { invoices, organiserProfiles } from '../../db/schema/invoices.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { EInvoiceStamp } from './invoice-pdf.ts';

export interface EInvoicingState {
  applies: boolean;
  /** From when their B2B invoices are registered with the IRP. */
  since: string | null;
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
}

/** The organiser's e-invoicing setting and what has not been registered yet. */
export function getEInvoicing(db: Db, userId: string, providerConfigured: boolean): EInvoicingState {
  const profile = db
    .select({ since: organiserProfiles.eInvoicingSince })
    .from(organiserProfiles)
    .where(eq(organiserProfiles.userId, userId))
    .get();
  const rows = db
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
        eq(eInvoiceRegistrations.issuer, userId),
        inArray(eInvoiceRegistrations.status, ['pending', 'failed']),
      ),
    )
    .orderBy(desc(invoices.issuedAt))
    .limit(50)
    .all();
  return {
    applies: Boolean(profile?.since),
    since: profile?.since ?? null,
    providerConfigured,
    notRegistered: rows.map((r) => ({ ...r, status: r.status as 'pending' | 'failed' })),
  };
}

/**
 * "E-invoicing applies to me": from now on the organiser's B2B tax invoices are registered with the IRP
 * (invoices issued before stay as they are). Turning it on again keeps the first date. Needs a GSTIN.
 */
export async function setEInvoicing(db: Db, userId: string, applies: boolean, now: Date): Promise<void> {
  await writeTransaction(db, (tx) => {
    const profile = tx
      .select({ gstin: organiserProfiles.gstin, since: organiserProfiles.eInvoicingSince })
      .from(organiserProfiles)
      .where(eq(organiserProfiles.userId, userId))
      .get();
    if (applies && !profile?.gstin) throw badRequest(E_INVOICING_MESSAGES.needsGstin);
    if (!profile) return;
    tx.update(organiserProfiles)
      .set({ eInvoicingSince: applies ? (profile.since ?? now.toISOString()) : null })
      .where(eq(organiserProfiles.userId, userId))
      .run();
  });
}

/** Sends one of the organiser's failed invoices to the IRP again on the job's next run, attempts anew. */
export async function retryEInvoice(db: Db, userId: string, invoiceId: string, now: Date): Promise<void> {
  await writeTransaction(db, (tx) => {
    const row = tx
      .select({ status: eInvoiceRegistrations.status })
      .from(eInvoiceRegistrations)
      .where(and(eq(eInvoiceRegistrations.invoiceId, invoiceId), eq(eInvoiceRegistrations.issuer, userId)))
      .get();
    if (!row) throw notFound(E_INVOICING_MESSAGES.notFound);
    if (row.status === 'registered') throw badRequest(E_INVOICING_MESSAGES.alreadyRegistered);
    tx.update(eInvoiceRegistrations)
      .set({ attempts: 0, nextAttemptAt: now.toISOString(), updatedAt: now.toISOString() })
      .where(eq(eInvoiceRegistrations.invoiceId, invoiceId))
      .run();
  });
}

/** The IRN, acknowledgement and signed QR of a registered invoice, for its PDF; null otherwise. */
export function eInvoiceStampOf(db: Db, invoiceId: string): EInvoiceStamp | null {
  const row = db
    .select({
      irn: eInvoiceRegistrations.irn,
      ackNumber: eInvoiceRegistrations.ackNumber,
      ackDate: eInvoiceRegistrations.ackDate,
      signedQrCode: eInvoiceRegistrations.signedQrCode,
    })
    .from(eInvoiceRegistrations)
    .where(
      and(eq(eInvoiceRegistrations.invoiceId, invoiceId), eq(eInvoiceRegistrations.status, 'registered')),
    )
    .get();
  if (!row?.irn || !row.ackNumber || !row.ackDate || !row.signedQrCode) return null;
  return { irn: row.irn, ackNumber: row.ackNumber, ackDate: row.ackDate, signedQrCode: row.signedQrCode };
}
