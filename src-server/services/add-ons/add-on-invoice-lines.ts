import { asc, eq } from 'drizzle-orm';
import { computeTaxLine, type TaxLine } from '../../../shared/gst.ts';
import type { IndianState } from '../../../shared/states.ts';
import type { DbOrTx } from '../../db/client.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { InvoiceLine } from '../../db/schema/invoices.ts';

/**
 * A booking's add-ons as lines of the organiser's invoice (ADR 0041): each at its own rate and HSN/SAC,
 * never the admission slab and never entry 81's ₹500 exemption (that is for admission only), split
 * CGST + SGST or IGST by the event's place of supply exactly as the admission lines are. Whether GST
 * was added on top is read from what the line charged (its stored total beyond price × quantity), so
 * the invoice always adds up to what was paid. An unregistered organiser charges no GST on them.
 */
export function* addOnInvoiceLinesSteps(
  tx: DbOrTx,
  bookingId: string,
  supply: { registered: boolean; supplierState: IndianState; placeOfSupply: IndianState; eventName: string },
): Steps<{ line: InvoiceLine; tax: TaxLine }[]> {
  const { bookingAddOns } = tablesOf(tx);
  const sold = yield* rows(
    tx
      .select()
      .from(bookingAddOns)
      .where(eq(bookingAddOns.bookingId, bookingId))
      .orderBy(asc(bookingAddOns.position)),
  );
  return sold.map((a) => {
    const gross = a.pricePaise * a.quantity;
    const tax = computeTaxLine({
      pricePaise: a.pricePaise,
      personsPerTicket: 1,
      quantity: a.quantity,
      taxRatePercent: supply.registered ? a.taxRatePercent : 0,
      taxInclusive: a.totalPaise === gross,
      exemptionApplies: false,
      supplierState: supply.supplierState,
      placeOfSupply: supply.placeOfSupply,
    });
    const { taxPaise: _sum, ...split } = tax;
    const line: InvoiceLine = {
      description: `${supply.eventName}: ${a.name}${a.variantName ? ` (${a.variantName})` : ''}`,
      sac: a.hsnSac,
      quantity: a.quantity,
      unitPricePaise: a.pricePaise,
      personsPerTicket: 1,
      ...split,
      addOn: true,
    };
    return { line, tax };
  });
}
