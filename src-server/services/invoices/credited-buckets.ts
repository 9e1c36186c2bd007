import { chargedRateOf, isTaxedKind, reportedSacOf } from '../../../shared/gst.ts';
import type { CreditNoteRow, InvoiceRow } from './invoice-pdf.ts';

/**
 * An invoice's lines, and a credit note on it, as SAC-and-rate groups: what GSTR-1's tables
 * (export-gstr1.ts), the accountant's monthly CSV (stream-invoices-csv.ts) and the e-invoice's credit
 * note (e-invoice-payload.ts) report, each the same way. The SAC is the one reported (shared/gst.ts `reportedSacOf`).
 */
export interface Bucket {
  sac: string;
  rate: number;
  /** Entry 81's exempt admission (GSTR-1 table 8's Exempted column). */
  exempt: boolean;
  /** A 0 % supply entry 81 does not exempt (table 8's Nil Rated column; issue 36). */
  nil: boolean;
  quantity: number;
  taxable: number;
  igst: number;
  cgst: number;
  sgst: number;
}

/** An invoice's lines summed per SAC, rate and kind (exempt and nil-rated lines at rate 0). */
export function bucketsOf(invoice: InvoiceRow): Bucket[] {
  const out = new Map<string, Bucket>();
  for (const line of invoice.lines) {
    const exempt = line.kind === 'exempt';
    const nil = line.kind === 'nil';
    const rate = chargedRateOf(line);
    const sac = reportedSacOf(line);
    const key = `${sac}\u0000${rate}\u0000${isTaxedKind(line.kind) ? '' : line.kind}`;
    const b = out.get(key) ?? {
      sac,
      rate,
      exempt,
      nil,
      quantity: 0,
      taxable: 0,
      igst: 0,
      cgst: 0,
      sgst: 0,
    };
    b.quantity += line.quantity;
    b.taxable += line.taxableValuePaise;
    b.igst += line.igstPaise;
    b.cgst += line.cgstPaise;
    b.sgst += line.sgstPaise;
    out.set(key, b);
  }
  return [...out.values()];
}

/**
 * A credit note's stored amounts spread over its invoice's SAC-and-rate buckets, each head in proportion
 * to that head in the buckets (the last bucket takes what rounding leaves), so each rate's row adds up
 * to the note exactly. A credit note stores only totals: a whole credit gives back each bucket as it
 * was, a share (a percentage refund) gives the share of each, and only a whole credit returns quantity.
 */
export function creditedBuckets(invoice: InvoiceRow, note: CreditNoteRow, whole: boolean): Bucket[] {
  const buckets = bucketsOf(invoice);
  const heads = [
    ['taxable', note.taxableValuePaise],
    ['igst', note.igstPaise],
    ['cgst', note.cgstPaise],
    ['sgst', note.sgstPaise],
  ] as const;
  const out = buckets.map((b) => ({
    ...b,
    quantity: whole ? b.quantity : 0,
    taxable: 0,
    igst: 0,
    cgst: 0,
    sgst: 0,
  }));
  for (const [head, amount] of heads) {
    const weights = buckets.map((b) => b[head]);
    const sum = weights.reduce((a, w) => a + w, 0);
    let left = amount;
    const last = weights.findLastIndex((w) => w > 0);
    out.forEach((b, i) => {
      if (sum === 0) {
        if (i === 0) b[head] = amount;
        return;
      }
      const share = i === last ? left : Math.round((amount * weights[i]!) / sum);
      b[head] = share;
      left -= share;
    });
  }
  return out;
}
