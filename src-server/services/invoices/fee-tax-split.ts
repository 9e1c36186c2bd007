import { and, desc, eq } from 'drizzle-orm';
import type { FeeTaxSplit } from '../../../shared/pricing.ts';
import { row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/**
 * How a booking's fee invoice levied the fee's GST, for the mail to say the same (issue 36): its latest
 * platform-fee invoice (one re-issued with a GSTIN replaces the first). Null when there is none.
 */
export function feeTaxSplitOfBooking(db: DbOrTx, bookingId: string): FeeTaxSplit | null {
  return runSync(feeTaxSplitOfBookingSteps(db, bookingId));
}

/** `feeTaxSplitOfBooking` written once for both engines (ADR 0045): the confirmation's mail reads it. */
export function* feeTaxSplitOfBookingSteps(db: DbOrTx, bookingId: string): Steps<FeeTaxSplit | null> {
  const { invoices } = tablesOf(db);
  const invoice = yield* row(
    db
      .select({ cgst: invoices.cgstPaise, igst: invoices.igstPaise, stateTaxHead: invoices.stateTaxHead })
      .from(invoices)
      .where(and(eq(invoices.bookingId, bookingId), eq(invoices.kind, 'platform_fee')))
      .orderBy(desc(invoices.issuedAt), desc(invoices.number))
      .limit(1),
  );
  if (!invoice) return null;
  if (invoice.igst > 0) return { intra: false };
  return invoice.cgst > 0 ? { intra: true, stateHead: invoice.stateTaxHead ?? 'SGST' } : null;
}
