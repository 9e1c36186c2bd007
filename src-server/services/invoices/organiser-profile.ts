import { eq, sql } from 'drizzle-orm';
import { DEFAULT_TAX_RATE } from '../../../shared/gst.ts';
import { isInvoicingProfileComplete, type OrganiserProfile } from '../../../shared/gst-schemas.ts';
import { stateOfCity, stateOfGstin } from '../../../shared/gst-states.ts';
import type { Db } from '../../db/client.ts';
import { oncePer } from '../../db/once-per.ts';
import { organiserProfiles } from '../../db/schema/invoices.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { DbOrTx } from '../inventory/holds.ts';
import { issueOwedInvoices } from './issue-owed-invoices.ts';
import type { PlatformGst } from './platform-gst.ts';

export interface StoredOrganiserProfile {
  legalName: string;
  address: string;
  state: string;
  gstin: string;
  defaultTaxRate: number;
  taxInclusive: boolean;
  /**
   * Whether invoices can be issued from it: a profile carried over from the organiser request has no
   * address until the organiser saves it (shared/gst-schemas.ts isInvoicingProfileComplete).
   */
  complete: boolean;
}

/** The caller's tax profile, or null before they saved one (or were approved with a request). */
export function getOrganiserProfile(db: Db, userId: string): StoredOrganiserProfile | null {
  const row = profileLookup(db).get({ userId });
  if (!row) return null;
  return {
    legalName: row.legalName,
    address: row.address,
    state: row.state,
    gstin: row.gstin ?? '',
    defaultTaxRate: row.defaultTaxRate,
    taxInclusive: row.taxInclusive,
    complete: isInvoicingProfileComplete(row),
  };
}

/** Built once per database: the console's invoice pages read it on each visit (issue 21). */
const profileLookup = oncePer((db: Db) =>
  db
    .select()
    .from(organiserProfiles)
    .where(eq(organiserProfiles.userId, sql.placeholder('userId')))
    .prepare(),
);

/**
 * Saves the profile; invoices already issued keep the details they were issued with. In the same
 * transaction, the bookings sold while the profile was incomplete get the invoices they are owed
 * (issue 35); the answer says how many.
 */
export async function saveOrganiserProfile(
  db: Db,
  platform: PlatformGst | null,
  userId: string,
  input: OrganiserProfile,
  now: Date,
): Promise<StoredOrganiserProfile & { invoicesIssued: number }> {
  const values = {
    legalName: input.legalName,
    address: input.address,
    state: input.state,
    gstin: input.gstin || null,
    defaultTaxRate: input.defaultTaxRate,
    taxInclusive: input.taxInclusive,
    updatedAt: now.toISOString(),
  };
  const issued = await writeTransaction(db, (tx) => {
    tx.insert(organiserProfiles)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: organiserProfiles.userId, set: values })
      .run();
    return issueOwedInvoices(tx, platform, userId, now);
  });
  return { ...getOrganiserProfile(db, userId)!, invoicesIssued: issued.length };
}

/**
 * When an admin approves an organiser request (issue 35): what the request said becomes the invoicing
 * profile's defaults — the organisation as legal name, its GSTIN, and the state of the GSTIN (else of
 * the request's city). The address is left empty, so the profile is not complete until the organiser
 * saves it; a profile the person already has is kept as it is. Runs in the approval's transaction.
 */
export function carryRequestToProfile(
  tx: DbOrTx,
  request: { userId: string; organisationName: string; city: string; gstin: string | null },
  now: Date,
): void {
  const state = (request.gstin && stateOfGstin(request.gstin)) || stateOfCity(request.city);
  if (!state) return;
  tx.insert(organiserProfiles)
    .values({
      userId: request.userId,
      legalName: request.organisationName,
      address: '',
      state,
      gstin: request.gstin || null,
      defaultTaxRate: DEFAULT_TAX_RATE,
      taxInclusive: true,
      updatedAt: now.toISOString(),
    })
    .onConflictDoNothing({ target: organiserProfiles.userId })
    .run();
}
