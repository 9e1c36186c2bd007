/**
 * GST on admission tickets (issue 16, docs/decisions/0024-gst-invoices.md): one pure function per
 * invoice line, in integer paise, so the invoice, the PDF and the CSV only ever copy stored amounts.
 *
 * Rounding rules (each applied once per line, never per ticket):
 * - tax-exclusive prices: taxable value = price × quantity; tax = taxable × rate, rounded half-up.
 * - tax-inclusive prices: the line total is what the buyer paid; taxable value = total × 100/(100+rate),
 *   rounded half-up; tax = total − taxable, so taxable + tax is always exactly the price paid.
 * - intra-state: CGST = tax/2 rounded up, SGST = the rest (CGST carries an odd paisa), so
 *   CGST + SGST = tax exactly; inter-state: IGST = tax.
 * Invoice totals are sums of the lines' stored amounts, so they add up by construction.
 */
import type { IndianState } from './states.ts';

/** SAC for "recreation, cultural and sporting services" (admission to events). */
export const ADMISSION_SAC = '9996';
/** Default GST rate on admission to events, percent. */
export const DEFAULT_TAX_RATE = 18;
/** Admission at or below this, per person, is exempt (Notification 12/2017-CT(Rate), entry 81). */
export const EXEMPT_ADMISSION_PER_PERSON_PAISE = 50_000;
export const EXEMPT_WORDING =
  'Exempt supply: admission of ₹500 or less per person (Notification 12/2017-Central Tax (Rate), entry 81). No GST charged.';

export interface TaxLineInput {
  /** Price of one ticket as the organiser set it (with or without tax, per `taxInclusive`). */
  pricePaise: number;
  personsPerTicket: number;
  quantity: number;
  /** Percent with up to two decimals; 18 when not given. */
  taxRatePercent?: number;
  taxInclusive: boolean;
  supplierState: IndianState;
  /** Where the event is held. */
  placeOfSupply: IndianState;
  /**
   * Paise a discount code took off each ticket (issue 40), before tax: the line is taxed, and its
   * exemption judged, on the price actually charged (price − discount), the transaction value.
   */
  discountPerTicketPaise?: number;
}

export type TaxKind = 'exempt' | 'intra' | 'inter';

export interface TaxLine {
  kind: TaxKind;
  /** The rate applied; 0 when exempt. */
  taxRatePercent: number;
  taxableValuePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  taxPaise: number;
  /** What the buyer pays for the line: taxable value + tax. */
  totalPaise: number;
}

export type TaxTotals = Omit<TaxLine, 'kind' | 'taxRatePercent'>;

/** True when one person's admission is ₹500 or less: price ≤ ₹500 × persons per ticket. */
export function isExemptAdmission(pricePaise: number, personsPerTicket: number): boolean {
  return pricePaise <= EXEMPT_ADMISSION_PER_PERSON_PAISE * personsPerTicket;
}

export function computeTaxLine(input: TaxLineInput): TaxLine {
  const { personsPerTicket, quantity, taxInclusive } = input;
  const discountPerTicketPaise = input.discountPerTicketPaise ?? 0;
  for (const [name, value] of Object.entries({
    pricePaise: input.pricePaise,
    quantity,
    discountPerTicketPaise,
  })) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be whole and ≥ 0`);
  }
  if (discountPerTicketPaise > input.pricePaise) throw new RangeError('a discount cannot exceed the price');
  const pricePaise = input.pricePaise - discountPerTicketPaise;
  if (!Number.isSafeInteger(personsPerTicket) || personsPerTicket < 1) {
    throw new RangeError('personsPerTicket must be at least 1');
  }
  const rate = input.taxRatePercent ?? DEFAULT_TAX_RATE;
  if (!Number.isFinite(rate) || rate < 0 || rate > 100) throw new RangeError(`bad tax rate ${rate}`);
  const gross = pricePaise * quantity;
  if (isExemptAdmission(pricePaise, personsPerTicket) || rate === 0) {
    return {
      kind: 'exempt',
      taxRatePercent: 0,
      taxableValuePaise: gross,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      taxPaise: 0,
      totalPaise: gross,
    };
  }
  // Rates in basis points keep the arithmetic in integers (18 % → 1800, 2.5 % → 250).
  const bp = Math.round(rate * 100);
  const taxable = taxInclusive ? divideRoundHalfUp(gross * 10_000, 10_000 + bp) : gross;
  const tax = taxInclusive ? gross - taxable : divideRoundHalfUp(gross * bp, 10_000);
  const intra = input.supplierState === input.placeOfSupply;
  const cgst = intra ? Math.ceil(tax / 2) : 0;
  return {
    kind: intra ? 'intra' : 'inter',
    taxRatePercent: rate,
    taxableValuePaise: taxable,
    cgstPaise: cgst,
    sgstPaise: intra ? tax - cgst : 0,
    igstPaise: intra ? 0 : tax,
    taxPaise: tax,
    totalPaise: taxable + tax,
  };
}

/** One line of a selection, for the tax a tax-exclusive price adds on top. */
export interface ExclusiveTaxLine {
  pricePaise: number;
  personsPerTicket: number;
  quantity: number;
  /** Paise off each ticket (issue 40): taxed on what is charged. */
  discountPerTicketPaise?: number;
}

/**
 * The admission GST added on top of tax-exclusive prices at checkout: the sum of each line's tax,
 * computed exactly as the invoice computes it (rounded once per line; exempt lines add nothing), so
 * the amount paid is always the invoice's total. The split into CGST/SGST or IGST does not change it.
 */
export function exclusiveTaxPaise(lines: readonly ExclusiveTaxLine[], taxRatePercent: number): number {
  return lines.reduce(
    (sum, line) =>
      sum +
      computeTaxLine({
        ...line,
        taxRatePercent,
        taxInclusive: false,
        // Any one state: the place only decides how the tax is split, not how much it is.
        supplierState: 'Maharashtra',
        placeOfSupply: 'Maharashtra',
      }).taxPaise,
    0,
  );
}

/** Sums of the lines' amounts: the invoice's totals. */
export function sumTaxLines(lines: readonly TaxTotals[]): TaxTotals {
  const total: TaxTotals = {
    taxableValuePaise: 0,
    cgstPaise: 0,
    sgstPaise: 0,
    igstPaise: 0,
    taxPaise: 0,
    totalPaise: 0,
  };
  for (const line of lines) {
    for (const key of Object.keys(total) as (keyof TaxTotals)[]) total[key] += line[key];
  }
  return total;
}

/** Half-up rounding of a non-negative integer quotient. */
function divideRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

const GSTIN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The GSTN check character for the first 14 characters of a GSTIN (mod-36, weights 1,2,1,2…). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_ALPHABET.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_ALPHABET[(36 - (sum % 36)) % 36]!;
}
