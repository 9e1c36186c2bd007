import { and, desc, eq } from 'drizzle-orm';
import type { FeeTaxSplit } from '../../../shared/pricing.ts';
import { invoices } from '../../db/schema/invoices.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/**
 * How a booking's fee invoice levied the fee's GST, for the mail to say the same (issue 36): its latest
 * platform-fee invoice (one re-issued with a GSTIN replaces the first). Null when there is none.
 */
export function feeTaxSplitOfBooking(db: DbOrTx, bookingId: string): FeeTaxSplit | null {
  const invoice = db
    .select({ cgst: invoices.cgstPaise, igst: invoices.igstPaise, stateTaxHead: invoices.stateTaxHead })
    .from(invoices)
    .where(and(eq(invoices.bookingId, bookingId), eq(invoices.kind, 'platform_fee')))
    .orderBy(desc(invoices.issuedAt), desc(invoices.number))
    .limit(1)
    .get();
  if (!invoice) return null;
  if (invoice.igst > 0) return { intra: false };
  return invoice.cgst > 0 ? { intra: true, stateHead: invoice.stateTaxHead ?? 'SGST' } : null;
}
