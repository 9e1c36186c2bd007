/**
 * GST on admission tickets (issue 16, docs/decisions/0024-gst-invoices.md): one pure function per
 * invoice line, in integer paise, so the invoice, the PDF and the CSV only ever copy stored amounts.
 *
 * Rounding rules (each applied once per line, never per ticket; docs/decisions/0033):
 * - tax-exclusive prices: taxable value = price × quantity; inter-state IGST = taxable × rate, and
 *   intra-state CGST = SGST (or UTGST) = taxable × rate/2, each rounded half-up (each head is levied on the
 *   taxable value at its own rate), so the two heads are always equal.
 * - tax-inclusive prices: the line total is what the buyer paid; taxable value = total × 100/(100+rate),
 *   rounded half-up; tax = total − taxable, so taxable + tax is always exactly the price paid. Intra-state,
 *   an odd tax cannot be halved: its odd paisa moves to the taxable value, so CGST = SGST and the total
 *   is still what was paid.
 * Invoice totals are sums of the lines' stored amounts, so they add up by construction.
 */
import type { EventCategory } from './categories.ts';
import type { IndianState } from './states.ts';

/** SAC of the platform's convenience fee: other support services n.e.c. (998599). */
export const PLATFORM_FEE_SAC = '998599';
/** Default GST rate on admission to events, percent. */
export const DEFAULT_TAX_RATE = 18;
/** Admission at or below this, per person, is exempt (Notification 12/2017-CT(Rate), entry 81). */
export const EXEMPT_ADMISSION_PER_PERSON_PAISE = 50_000;
export const EXEMPT_WORDING =
  'Exempt supply: admission of ₹500 or less per person (Notification 12/2017-Central Tax (Rate), entry 81). No GST charged.';
/**
 * A line at a 0 % rate that entry 81 does not exempt (a ₹1,000 workshop the organiser rates at 0 %): a
 * nil-rated supply, not an exempt one, so its document never cites entry 81 and GSTR-1 reports it in table
 * 8's Nil Rated column (issue 36, ADR 0033).
 */
export const NIL_RATED_WORDING = 'Nil-rated supply: GST at 0 %. No GST charged.';

/**
 * The GST rates the event editor and the organiser profile accept: the schedule in force since
 * 22 September 2025 (0, 5, 18 and 40 %; 40 % for admission to, e.g., IPL-type sporting events). Issued
 * invoices keep the rate stored on each line, so a change of schedule never touches them.
 */
export const GST_RATE_SCHEDULE = { since: '2025-09-22', rates: [0, 5, 18, 40] } as const;

/** The schedule before it (1 July 2017 to 21 September 2025): what rates stored then may hold. */
const PREVIOUS_RATE_SCHEDULE = { since: '2017-07-01', rates: [0, 5, 12, 18, 28] } as const;

/**
 * Whether `ratePercent` is in the schedule in force at `now` (a schedule starts at midnight India time
 * of its date). The one place that decides whether a rate may go on a new invoice: an event or profile
 * whose rate was saved under an earlier schedule (12 or 28 %) holds it until the organiser chooses a
 * current one, and its tickets are not sold meanwhile (issue 36, ADR 0033).
 */
export function isRateInForce(ratePercent: number, now: Date): boolean {
  const schedule =
    now.getTime() >= Date.parse(`${GST_RATE_SCHEDULE.since}T00:00:00+05:30`)
      ? GST_RATE_SCHEDULE
      : PREVIOUS_RATE_SCHEDULE;
  return (schedule.rates as readonly number[]).includes(ratePercent);
}

/**
 * The rate an event's tickets are taxed at: the event's own, else the organiser profile's default, else
 * 18 % (ADR 0024). The invoice, the checkout and the editor's checks all read it here.
 */
export function ticketTaxRateOf(
  eventRate: number | null,
  profileDefaultRate: number | null | undefined,
): number {
  return eventRate ?? profileDefaultRate ?? DEFAULT_TAX_RATE;
}

/**
 * What kind of admission an event sells, as entry 81 of Notification 12/2017-CT(R) lists them: only
 * these kinds are exempt at ₹500 or less per person ('other' covers workshops, talks, comedy, exhibitions
 * and everything else entry 81 does not name). The category alone cannot always say (a "show" may be a
 * magic show), so the organiser may state it; null on the event means the category's default.
 */
export const ADMISSION_KINDS = [
  'theatre',
  'concert',
  'awards_or_pageant',
  'sporting_event',
  'planetarium',
  'other',
] as const;
export type AdmissionKind = (typeof ADMISSION_KINDS)[number];

export const ADMISSION_KIND_LABELS: Readonly<Record<AdmissionKind, string>> = {
  theatre: 'Circus, dance, theatre, drama or ballet',
  concert: 'Concert or musical performance',
  awards_or_pageant: 'Award function or pageant',
  sporting_event: 'Sporting event',
  planetarium: 'Planetarium',
  other: 'Anything else (workshop, talk, comedy, exhibition…)',
};

/**
 * The 6-digit SAC of admission to an event of each kind: e-invoices need 6 digits, and GSTR-1's HSN
 * summary has asked for 6 above ₹5 crore turnover (and accepted 6 from everyone) since 2025. From the
 * Scheme of Classification of Services (annexure to Notification 11/2017-Central Tax (Rate)), heading
 * 9996 "Recreational, cultural and sporting services":
 * - group 99962 (performing arts and other live entertainment event presentation and promotion):
 *   999622 "Performing arts event production and presentation services" for circus, dance, theatre,
 *   drama, ballet and concerts; 999629 "Other performing arts and live entertainment services n.e.c."
 *   for award functions and pageants;
 * - group 99965 (sports and recreational sports services): 999651 "Sports and recreational sports event
 *   promotion and organisation services";
 * - group 99969 (other amusement and recreational services): 999699 "Other recreation and amusement
 *   services n.e.c." for planetariums and everything else (workshops, talks, comedy, exhibitions).
 * Not 999692: in group 99969 it was gambling and betting, and Notification 12/2023-CT(R) (w.e.f.
 * 20-10-2023) omitted it, so the IRP's master refuses it. The one home of these codes: invoices store
 * the kind's code on each line at issue, e-invoices and GSTR-1 read it from there (ADR 0034). A chartered
 * accountant should confirm the code per kind.
 */
const ADMISSION_SAC_OF_KIND: Readonly<Record<AdmissionKind, string>> = {
  theatre: '999622',
  concert: '999622',
  awards_or_pageant: '999629',
  sporting_event: '999651',
  planetarium: '999699',
  other: '999699',
};

/** The SAC an admission line of this kind is issued with. */
export function admissionSacOf(kind: AdmissionKind): string {
  return ADMISSION_SAC_OF_KIND[kind];
}

/** What each SAC Jalsa issues is, in the scheme's words: GSTR-1's HSN summary describes its rows so. */
export const SAC_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '999622': 'Performing arts event production and presentation services',
  '999629': 'Other performing arts and live entertainment services n.e.c.',
  '999651': 'Sports and recreational sports event promotion and organisation services',
  '999699': 'Other recreation and amusement services n.e.c.',
  [PLATFORM_FEE_SAC]: 'Convenience fee (support services)',
};

/**
 * Codes an admission line was stored with before it had its kind's: the heading 9996 (before 6 digits)
 * and 999692 (briefly, before the code by kind). The lines do not say their kind and their event's may
 * have changed since, so they are reported as group 99969's catch-all, 999699; never as 999692.
 */
const EARLIER_ADMISSION_SACS: ReadonlySet<string> = new Set(['9996', '999692']);
const EARLIER_ADMISSION_SAC_REPORTED_AS = '999699';

/**
 * A stored line's SAC as e-invoices and GSTR-1 report it: its own, except an admission line stored with
 * an earlier code (above). An add-on's line keeps the HSN/SAC its organiser gave it.
 */
export function reportedSacOf(line: { sac: string; addOn?: boolean }): string {
  return !line.addOn && EARLIER_ADMISSION_SACS.has(line.sac) ? EARLIER_ADMISSION_SAC_REPORTED_AS : line.sac;
}

/** The kinds entry 81 lists: admission to these at ₹500 or less per person is exempt. */
const EXEMPT_KINDS: ReadonlySet<AdmissionKind> = new Set([
  'theatre',
  'concert',
  'awards_or_pageant',
  'sporting_event',
  'planetarium',
]);

/**
 * The kind an event's category suggests. Comedy is not named in entry 81 (nor is a workshop), so it is
 * 'other' unless the organiser says it is theatre; a "show" is taken to be theatre, which the organiser
 * corrects for a show entry 81 does not list.
 */
const CATEGORY_KINDS: Readonly<Record<EventCategory, AdmissionKind>> = {
  concerts: 'concert',
  sports: 'sporting_event',
  shows: 'theatre',
  comedy: 'other',
  workshops: 'other',
  others: 'other',
};

/** The event's admission kind: what the organiser stated, else its category's default. */
export function admissionKindOf(
  category: EventCategory,
  stated: AdmissionKind | null | undefined,
): AdmissionKind {
  return stated ?? CATEGORY_KINDS[category];
}

/** Whether entry 81's ₹500 exemption can apply to admission of this kind. */
export function exemptionAppliesTo(kind: AdmissionKind): boolean {
  return EXEMPT_KINDS.has(kind);
}

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
  /** Whether entry 81's ₹500 exemption applies to this event's kind (`exemptionAppliesTo`). */
  exemptionApplies: boolean;
  /**
   * Paise a discount code took off each ticket (issue 40), before tax: the line is taxed, and its
   * exemption judged, on the price actually charged (price − discount), the transaction value.
   */
  discountPerTicketPaise?: number;
}

/**
 * 'exempt': entry 81's ₹500 admission; 'nil': a 0 % rate on a supply entry 81 does not exempt; 'intra' /
 * 'inter': taxed, CGST + SGST (or UTGST) or IGST. Lines stored before 'nil' existed keep the kind they
 * were issued with (a 0 % line then was stored 'exempt').
 */
export type TaxKind = 'exempt' | 'nil' | 'intra' | 'inter';

/** Whether a line of this kind carries GST (intra- or inter-state); exempt and nil-rated lines do not. */
export function isTaxedKind(kind: TaxKind): kind is 'intra' | 'inter' {
  return kind === 'intra' || kind === 'inter';
}

/**
 * The rate a stored line charges: its own when taxed, 0 when exempt or nil-rated (whatever rate the
 * event had). One rule for re-taxing a line, credit notes' buckets and e-invoices, so they always agree.
 */
export function chargedRateOf(line: { kind: TaxKind; taxRatePercent: number }): number {
  return isTaxedKind(line.kind) ? line.taxRatePercent : 0;
}

export interface TaxLine {
  kind: TaxKind;
  /** The rate applied; 0 when exempt or nil-rated. */
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

/**
 * True when the admission is exempt: of a kind entry 81 lists, and ₹500 or less for one person
 * (price ≤ ₹500 × persons per ticket).
 */
export function isExemptAdmission(
  pricePaise: number,
  personsPerTicket: number,
  exemptionApplies: boolean,
): boolean {
  return exemptionApplies && pricePaise <= EXEMPT_ADMISSION_PER_PERSON_PAISE * personsPerTicket;
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
  // Entry 81 first: an exempt admission is exempt whatever its rate. A 0 % rate on anything else is a
  // nil-rated supply (issue 36): no tax either, but not the exemption, on the document or in GSTR-1.
  const exempt = isExemptAdmission(pricePaise, personsPerTicket, input.exemptionApplies);
  if (exempt || rate === 0) {
    return {
      kind: exempt ? 'exempt' : 'nil',
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
  const intra = input.supplierState === input.placeOfSupply;
  if (!taxInclusive) {
    // Each head at its own rate on the taxable value: equal heads intra-state.
    const half = intra ? divideRoundHalfUp(gross * bp, 20_000) : 0;
    const tax = intra ? 2 * half : divideRoundHalfUp(gross * bp, 10_000);
    return taxLine(intra, rate, gross, tax);
  }
  const taxable = divideRoundHalfUp(gross * 10_000, 10_000 + bp);
  return intra
    ? intraStateSplit(rate, taxable, gross - taxable)
    : taxLine(false, rate, taxable, gross - taxable);
}

/**
 * A taxable value and the tax on it, charged together, split into two equal heads (CGST and SGST or
 * UTGST): when the tax is an odd number of paise its odd paisa moves to the taxable value, so the heads
 * are equal and taxable + tax is still what was paid. Used for inclusive prices and for the platform's
 * fee, whose GST was charged before the buyer's state was known.
 */
export function intraStateSplit(taxRatePercent: number, taxablePaise: number, taxPaise: number): TaxLine {
  const odd = taxPaise % 2;
  return taxLine(true, taxRatePercent, taxablePaise + odd, taxPaise - odd);
}

function taxLine(intra: boolean, rate: number, taxable: number, tax: number): TaxLine {
  return {
    kind: intra ? 'intra' : 'inter',
    taxRatePercent: rate,
    taxableValuePaise: taxable,
    cgstPaise: intra ? tax / 2 : 0,
    sgstPaise: intra ? tax / 2 : 0,
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

/** How the checkout taxes an event's exclusive prices: its rate, exemption and whether intra-state. */
export interface ExclusiveTaxRule {
  taxRatePercent: number;
  exemptionApplies: boolean;
  /** Intra-state each head is rounded on its own, which can differ by a paisa from IGST's one rounding. */
  intraState: boolean;
}

/**
 * The admission GST added on top of tax-exclusive prices at checkout: the sum of each line's tax,
 * computed exactly as the invoice computes it (rounded once per line; exempt lines add nothing), so
 * the amount paid is always the invoice's total.
 */
export function exclusiveTaxPaise(lines: readonly ExclusiveTaxLine[], rule: ExclusiveTaxRule): number {
  return sumOfLinesHead(lines, { ...rule, taxInclusive: false }, 'taxPaise');
}

/**
 * One head (the tax, or the taxable value) summed over lines taxed as the invoice taxes them, line by
 * line: at the rule's rate, or a line's own (an add-on's). The states are any two that are equal (or
 * not): they only decide the heads and their rounding.
 */
export function sumOfLinesHead(
  lines: readonly (ExclusiveTaxLine & { taxRatePercent?: number; exemptionApplies?: boolean })[],
  rule: ExclusiveTaxRule & { taxInclusive: boolean },
  head: 'taxPaise' | 'taxableValuePaise',
): number {
  const states = rule.intraState
    ? ({ supplierState: 'Maharashtra', placeOfSupply: 'Maharashtra' } as const)
    : ({ supplierState: 'Maharashtra', placeOfSupply: 'Karnataka' } as const);
  return lines.reduce(
    (sum, line) =>
      sum +
      computeTaxLine({
        ...line,
        taxRatePercent: line.taxRatePercent ?? rule.taxRatePercent,
        exemptionApplies: line.exemptionApplies ?? rule.exemptionApplies,
        taxInclusive: rule.taxInclusive,
        ...states,
      })[head],
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
