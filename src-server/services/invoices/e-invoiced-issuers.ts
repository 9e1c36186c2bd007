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
}

/**
 * Every supplier under e-invoicing: each organiser who said so (their admission tax invoices between two
 * GSTINs), and the platform when PLATFORM_E_INVOICING_SINCE is set (its convenience-fee tax invoices to
 * buyers with a GSTIN; platform-gst.ts `platformEInvoicingSinceOf`). The invoices' job and the credit
 * notes' job read the same list, so a note is sent exactly when its invoice was.
 */
export function* eInvoicedIssuersSteps(db: DbOrTx, platformSince: string | null): Steps<EInvoicedIssuer[]> {
  const { organiserProfiles } = tablesOf(db);
  const organisers = yield* rows(
    db
      .select({ issuer: organiserProfiles.userId, since: organiserProfiles.eInvoicingSince })
      .from(organiserProfiles)
      .where(isNotNull(organiserProfiles.eInvoicingSince)),
  );
  const issuers: EInvoicedIssuer[] = organisers.map(({ issuer, since }) => ({
    issuer,
    since: since!,
    needsIrn: B2B_TAX_INVOICE,
  }));
  if (platformSince)
    issuers.push({ issuer: PLATFORM_ISSUER, since: platformSince, needsIrn: B2B_FEE_INVOICE });
  return issuers;
}
