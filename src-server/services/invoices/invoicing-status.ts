import { eq } from 'drizzle-orm';
import { type InvoicingStatus, invoicingStatusOf } from '../../../shared/gst-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { row, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';

/**
 * Whether an event's owner is registered for GST and has the details their invoices need: the publish
 * checklist refuses a registered owner's event until they are complete (issue 35), and the editor says
 * why an unregistered owner's buyers get no GST invoice. An event without an owner (the demo catalogue)
 * counts as unregistered.
 */
export function* ownerInvoicingStatusSteps(tx: DbOrTx, ownerId: string | null): Steps<InvoicingStatus> {
  const { organiserProfiles } = tablesOf(tx);
  const profile = ownerId
    ? yield* row(
        tx
          .select({
            legalName: organiserProfiles.legalName,
            address: organiserProfiles.address,
            state: organiserProfiles.state,
            gstin: organiserProfiles.gstin,
          })
          .from(organiserProfiles)
          .where(eq(organiserProfiles.userId, ownerId)),
      )
    : undefined;
  return invoicingStatusOf(profile);
}
