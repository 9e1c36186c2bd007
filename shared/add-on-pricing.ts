import { computeTaxLine } from './gst.ts';

/**
 * What one add-on line charges (issue 40, ADR 0041), as the hold charges it and the checkout previews it:
 * with the event's prices including GST, the price as set; with prices "+ GST", the price plus the
 * add-on's own GST (its own rate, never the ₹500 admission exemption), rounded per head as the invoice
 * rounds it (intra-state CGST and SGST each, inter-state IGST once).
 */
export function addOnLineTotalPaise(
  line: { pricePaise: number; quantity: number; taxRatePercent: number },
  taxes: { pricesPlusGst: boolean; intraState: boolean },
): number {
  if (!taxes.pricesPlusGst) return line.pricePaise * line.quantity;
  return computeTaxLine({
    pricePaise: line.pricePaise,
    personsPerTicket: 1,
    quantity: line.quantity,
    taxRatePercent: line.taxRatePercent,
    taxInclusive: false,
    exemptionApplies: false,
    supplierState: 'Maharashtra',
    placeOfSupply: taxes.intraState ? 'Maharashtra' : 'Karnataka',
  }).totalPaise;
}
