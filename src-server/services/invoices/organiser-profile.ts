import { eq, sql } from 'drizzle-orm';
import type { OrganiserProfile } from '../../../shared/gst-schemas.ts';
import type { Db } from '../../db/client.ts';
import { oncePer } from '../../db/once-per.ts';
import { events } from '../../db/schema/catalog.ts';
import { organiserProfiles } from '../../db/schema/invoices.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

export interface StoredOrganiserProfile {
  legalName: string;
  address: string;
  state: string;
  gstin: string;
  defaultTaxRate: number;
  taxInclusive: boolean;
}

/** The caller's tax profile, or null before they saved one. */
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

/** Saves the profile; invoices already issued keep the details they were issued with. */
export async function saveOrganiserProfile(
  db: Db,
  userId: string,
  input: OrganiserProfile,
  now: Date,
): Promise<StoredOrganiserProfile> {
  const values = {
    legalName: input.legalName,
    address: input.address,
    state: input.state,
    gstin: input.gstin || null,
    defaultTaxRate: input.defaultTaxRate,
    taxInclusive: input.taxInclusive,
    updatedAt: now.toISOString(),
  };
  await writeTransaction(db, (tx) =>
    tx
      .insert(organiserProfiles)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: organiserProfiles.userId, set: values })
      .run(),
  );
  return getOrganiserProfile(db, userId)!;
}

/** The event editor's tax rate: null goes back to the profile's default. */
export async function setEventTaxRate(db: Db, eventId: string, taxRate: number | null): Promise<void> {
  await writeTransaction(db, (tx) => tx.update(events).set({ taxRate }).where(eq(events.id, eventId)).run());
}
