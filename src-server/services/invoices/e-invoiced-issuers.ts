import { isNotNull, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { B2B_FEE_INVOICE, B2B_TAX_INVOICE, PLATFORM_ISSUER } from '../../db/schema/invoices.ts';

/**
 * A supplier whose B2B documents are registered with the IRP, from when, and which of its invoices need
 * an IRN (a condition on `invoices`, written as its partial index's own, so the index is used).
 */
export interface EInvoicedIssuer {
  issuer: string;
  since: string;
  needsIrn: SQL;
  /** The IRP's 30-day reporting window applies to it (AATO ₹10 crore or more; e-invoice-attempts.ts). */
  reportingWindow: boolean;
}

/** The platform's own e-invoicing from the environment (platform-gst.ts); `since` null: none. */
export interface PlatformEInvoicing {
  since: string | null;
  reportingWindow: boolean;
}

/**
 * Every supplier under e-invoicing: each organiser who said so (their admission tax invoices between two
 * GSTINs), and the platform when PLATFORM_E_INVOICING_SINCE is set (its convenience-fee tax invoices to
 * buyers with a GSTIN; platform-gst.ts `platformEInvoicingSinceOf`). The invoices' job and the credit
 * notes' job read the same list, so a note is sent exactly when its invoice was.
 */
export function* eInvoicedIssuersSteps(db: DbOrTx, platform: PlatformEInvoicing): Steps<EInvoicedIssuer[]> {
  const { organiserProfiles } = tablesOf(db);
  const organisers = yield* rows(
    db
      .select({
        issuer: organiserProfiles.userId,
        since: organiserProfiles.eInvoicingSince,
        reportingWindow: organiserProfiles.aatoTenCroreOrMore,
      })
      .from(organiserProfiles)
      .where(isNotNull(organiserProfiles.eInvoicingSince)),
  );
  const issuers: EInvoicedIssuer[] = organisers.map(({ issuer, since, reportingWindow }) => ({
    issuer,
    since: since!,
    needsIrn: B2B_TAX_INVOICE,
    reportingWindow,
  }));
  if (platform.since)
    issuers.push({
      issuer: PLATFORM_ISSUER,
      since: platform.since,
      needsIrn: B2B_FEE_INVOICE,
      reportingWindow: platform.reportingWindow,
    });
  return issuers;
}

/**
 * The issuers the reporting window applies to. A document of an issuer not in the list (an organiser
 * who has since turned e-invoicing off) has no window of Jalsa's own: the IRP decides.
 */
export function windowedIssuers(issuers: EInvoicedIssuer[]): Set<string> {
  return new Set(issuers.filter((i) => i.reportingWindow).map((i) => i.issuer));
}
