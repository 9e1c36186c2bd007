import { eq, sql } from 'drizzle-orm';
import { E_INVOICING_MESSAGES } from '../../../shared/e-invoicing-schemas.ts';
import { DEFAULT_TAX_RATE } from '../../../shared/gst.ts';
import { isInvoicingProfileComplete, type OrganiserProfile } from '../../../shared/gst-schemas.ts';
import { stateOfCity, stateOfGstin } from '../../../shared/gst-states.ts';
import { pinOf } from '../../../shared/indian-pin.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, runSync, type Steps } from '../../db/engine/steps.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { badRequest } from '../../errors.ts';
import { issueOwedInvoicesSteps } from './issue-owed-invoices.ts';
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
export function getOrganiserProfile(db: Db | DbOrTx, userId: string): Promise<StoredOrganiserProfile | null> {
  return runStatements(db, (d) => organiserProfileSteps(d, userId));
}

function* organiserProfileSteps(db: DbOrTx, userId: string): Steps<StoredOrganiserProfile | null> {
  const found = yield* row(profileLookup(db), { userId });
  if (!found) return null;
  return storedProfileOf(found);
}

function storedProfileOf(row: Tables['organiserProfiles']['$inferSelect']): StoredOrganiserProfile {
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
const profileLookup = oncePer((db: DbOrTx) => {
  const { organiserProfiles } = tablesOf(db);
  return db
    .select()
    .from(organiserProfiles)
    .where(eq(organiserProfiles.userId, sql.placeholder('userId')))
    .prepare();
});

/**
 * Saves the profile; invoices already issued keep the details they were issued with. In the same
 * transaction, the bookings sold while the profile was incomplete get the invoices they are owed
 * (issue 35); the answer says how many. While e-invoicing is on, the address must keep a PIN code
 * (shared/indian-pin.ts): it is the seller's address on every e-invoice, where the IRP requires a PIN.
 */
export async function saveOrganiserProfile(
  db: Db | DbOrTx,
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
  return runnerFor(db).write(function* (tx) {
    const { organiserProfiles } = tablesOf(tx);
    if (pinOf(input.address) === null) {
      const current = yield* row(
        tx
          .select({ eInvoicingSince: organiserProfiles.eInvoicingSince })
          .from(organiserProfiles)
          .where(eq(organiserProfiles.userId, userId)),
      );
      if (current?.eInvoicingSince) {
        throw badRequest(E_INVOICING_MESSAGES.addressNeedsPin, {
          address: E_INVOICING_MESSAGES.addressNeedsPin,
        });
      }
    }
    const saved = yield* row(
      tx
        .insert(organiserProfiles)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: organiserProfiles.userId, set: values })
        .returning(),
    );
    const issued = yield* issueOwedInvoicesSteps(tx, platform, userId, now);
    return { ...storedProfileOf(saved!), invoicesIssued: issued.length };
  });
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
  runSync(carryRequestToProfileSteps(tx, request, now));
}

/** `carryRequestToProfile` written once for both engines (ADR 0045): a step of the approval. */
export function* carryRequestToProfileSteps(
  tx: DbOrTx,
  request: { userId: string; organisationName: string; city: string; gstin: string | null },
  now: Date,
): Steps<void> {
  const { organiserProfiles } = tablesOf(tx);
  const state = (request.gstin && stateOfGstin(request.gstin)) || stateOfCity(request.city);
  if (!state) return;
  yield* changes(
    tx
      .insert(organiserProfiles)
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
      .onConflictDoNothing({ target: organiserProfiles.userId }),
  );
}
