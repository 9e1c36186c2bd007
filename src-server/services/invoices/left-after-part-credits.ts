import { chargedRateOf, computeTaxLine } from '../../../shared/gst.ts';
import type { IndianState } from '../../../shared/states.ts';
import type { InvoiceLine } from '../../db/schema/invoices.ts';
import type { CreditedAmounts } from '../partial-refunds/partial-credit-notes.ts';

/** An invoice's amounts, head by head. */
export type Amounts = CreditedAmounts;

const HEADS = ['taxableValuePaise', 'cgstPaise', 'sgstPaise', 'igstPaise', 'totalPaise'] as const;

/** What part credit notes left un-credited on an invoice, head by head (what a whole credit note credits). */
export function leftOn(invoice: Amounts, credited: Amounts): Amounts {
  return {
    taxableValuePaise: invoice.taxableValuePaise - credited.taxableValuePaise,
    cgstPaise: invoice.cgstPaise - credited.cgstPaise,
    sgstPaise: invoice.sgstPaise - credited.sgstPaise,
    igstPaise: invoice.igstPaise - credited.igstPaise,
    totalPaise: invoice.totalPaise - credited.totalPaise,
  };
}

/**
 * The lines of an admission invoice re-issued after part refunds (a GSTIN added later, ADR 0024): the
 * supply the buyer has finally paid for, adding up exactly to `left` (what the part credit notes left on
 * the old invoice, which the whole credit note then credits), so old − part notes − whole note = 0 and
 * the new invoice = what was kept.
 *
 * Each ticket line takes the quantity the booking still holds and is taxed again by shared/gst.ts's rules
 * (the same rate, inclusiveness, discount and heads, CGST = SGST intra-state); add-on lines stay whole
 * (cancelling tickets keeps them). When those lines are exactly `left` (tickets cancelled for their full
 * price) they are the invoice. Otherwise a part refund gave back an amount that is not whole tickets (an
 * organiser's amount, a policy's percentage): the lines (the held ones when they are worth at least
 * `left`, else the old ones, whose cancelled tickets' kept share is still supplied) are reduced in
 * proportion, each head of each line rounded to the paisa with CGST kept equal to SGST, the last line
 * taking the remainder so the lines add up to `left` to the paisa.
 */
export function linesLeft(
  invoice: {
    lines: InvoiceLine[];
    taxInclusive: boolean;
    supplierState: string;
    placeOfSupply: string;
  },
  heldOf: (line: InvoiceLine) => number,
  left: Amounts,
): InvoiceLine[] {
  const held = invoice.lines
    .map((line) => (line.addOn ? line : retaxed(invoice, line, Math.min(line.quantity, heldOf(line)))))
    .filter((line) => line.quantity > 0);
  if (sameAmounts(sumOf(held), left)) return held;
  const base = sumOf(held).totalPaise >= left.totalPaise && held.length > 0 ? held : invoice.lines;
  return inProportionOf(base, left);
}

/** A ticket line at another quantity, taxed again as shared/gst.ts taxes a line. */
function retaxed(
  invoice: { taxInclusive: boolean; supplierState: string; placeOfSupply: string },
  line: InvoiceLine,
  quantity: number,
): InvoiceLine {
  if (quantity === line.quantity) return line;
  const placeOfSupply = invoice.placeOfSupply as IndianState;
  const { taxPaise: _sum, ...tax } = computeTaxLine({
    pricePaise: line.unitPricePaise,
    personsPerTicket: line.personsPerTicket,
    quantity,
    discountPerTicketPaise: line.discountPerTicketPaise,
    // An exempt line stays exempt (rate 0) and a taxed one stays taxed at its rate, whatever its price.
    taxRatePercent: chargedRateOf(line),
    taxInclusive: invoice.taxInclusive,
    // The heads as issued: intra-state lines in one state, inter-state ones between the invoice's two.
    supplierState: line.kind === 'inter' ? (invoice.supplierState as IndianState) : placeOfSupply,
    placeOfSupply,
    exemptionApplies: false,
  });
  // The kind as issued: an exempt line stays exempt (its 0 % would make it nil-rated now), and a line
  // stored 'exempt' before nil-rated lines existed keeps that kind (issue 36).
  return { ...line, quantity, ...tax, kind: line.kind };
}

function inProportionOf(lines: InvoiceLine[], left: Amounts): InvoiceLine[] {
  const whole = sumOf(lines).totalPaise;
  const out: InvoiceLine[] = [];
  const sum: Amounts = { taxableValuePaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 0 };
  lines.forEach((line, i) => {
    let amounts: Amounts;
    if (i === lines.length - 1) {
      amounts = leftOn(left, sum);
    } else {
      const share = (paise: number) => (whole > 0 ? Math.round((paise * left.totalPaise) / whole) : 0);
      const totalPaise = share(line.totalPaise);
      const cgstPaise = share(line.cgstPaise);
      const sgstPaise = line.sgstPaise === line.cgstPaise ? cgstPaise : share(line.sgstPaise);
      const igstPaise = share(line.igstPaise);
      amounts = {
        cgstPaise,
        sgstPaise,
        igstPaise,
        totalPaise,
        taxableValuePaise: totalPaise - cgstPaise - sgstPaise - igstPaise,
      };
    }
    for (const head of HEADS) sum[head] += amounts[head];
    out.push({ ...line, ...amounts });
  });
  return out;
}

function sumOf(lines: Amounts[]): Amounts {
  const sum: Amounts = { taxableValuePaise: 0, cgstPaise: 0, sgstPaise: 0, igstPaise: 0, totalPaise: 0 };
  for (const line of lines) for (const head of HEADS) sum[head] += line[head];
  return sum;
}

function sameAmounts(a: Amounts, b: Amounts): boolean {
  return HEADS.every((head) => a[head] === b[head]);
}

/** The invoice's totals from its lines. */
export function totalsOf(lines: InvoiceLine[]): Amounts {
  return sumOf(lines);
}
