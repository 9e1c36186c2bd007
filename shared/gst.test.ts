import { describe, expect, it } from 'vitest';
import {
  ADMISSION_KINDS,
  admissionSacOf,
  chargedRateOf,
  computeTaxLine,
  isRateInForce,
  PLATFORM_FEE_SAC,
  reportedSacOf,
  sumTaxLines,
  type TaxLine,
  type TaxLineInput,
  ticketTaxRateOf,
} from './gst.ts';
import {
  CITIES_WITHOUT_STATE,
  defaultVenueState,
  feePlaceOfSupply,
  placeOfSupplyOfEvent,
  stateOfCity,
  stateOfGstin,
  stateTaxHeadOf,
  venueStateMissing,
  venueStatesOfCity,
} from './gst-states.ts';

// A concert: entry 81 lists it, so the ₹500 exemption can apply (issue 36).
const intra = { supplierState: 'Maharashtra', placeOfSupply: 'Maharashtra', exemptionApplies: true } as const;
const inter = { supplierState: 'Maharashtra', placeOfSupply: 'Karnataka', exemptionApplies: true } as const;

type Case = [string, TaxLineInput, Omit<TaxLine, 'taxRatePercent'>];
const line = (
  kind: TaxLine['kind'],
  taxable: number,
  cgst: number,
  sgst: number,
  igst: number,
): Omit<TaxLine, 'taxRatePercent'> => ({
  kind,
  taxableValuePaise: taxable,
  cgstPaise: cgst,
  sgstPaise: sgst,
  igstPaise: igst,
  taxPaise: cgst + sgst + igst,
  totalPaise: taxable + cgst + sgst + igst,
});

// Worked by hand (amounts in paise); "incl" = the price already contains the tax.
const cases: Case[] = [
  // ₹1,180 incl 18 %: 1180 / 1.18 = 1000.00 taxable, 180 tax, split 90 + 90.
  [
    'intra, inclusive, even split',
    { pricePaise: 118_000, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...intra },
    line('intra', 100_000, 9_000, 9_000, 0),
  ],
  [
    'inter, inclusive: the same tax as IGST',
    { pricePaise: 118_000, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...inter },
    line('inter', 100_000, 0, 0, 18_000),
  ],
  // Exactly ₹500 per person: exempt, the whole price is the (exempt) value.
  [
    '₹500.00 is exempt',
    { pricePaise: 50_000, personsPerTicket: 1, quantity: 2, taxInclusive: true, ...intra },
    line('exempt', 100_000, 0, 0, 0),
  ],
  [
    '₹500.00 exclusive is exempt too (no tax added)',
    { pricePaise: 50_000, personsPerTicket: 1, quantity: 1, taxInclusive: false, ...inter },
    line('exempt', 50_000, 0, 0, 0),
  ],
  // ₹500.01 incl: 500.01 / 1.18 = 423.7373 → 423.74; tax 76.27 is odd: its odd paisa moves to the
  // taxable value (issue 36) → taxable 423.75, CGST 38.13, SGST 38.13; 423.75 + 76.26 = 500.01.
  [
    '₹500.01 inclusive is taxable; the odd paisa goes to the taxable value',
    { pricePaise: 50_001, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...intra },
    line('intra', 42_375, 3_813, 3_813, 0),
  ],
  // ₹500.01 excl: 500.01 × 0.18 = 90.0018 → 90.00; buyer pays 590.01.
  [
    '₹500.01 exclusive is taxable',
    { pricePaise: 50_001, personsPerTicket: 1, quantity: 1, taxInclusive: false, ...inter },
    line('inter', 50_001, 0, 0, 9_000),
  ],
  // A couple's pass of ₹1,000 admits 2: ₹500 each, exempt.
  [
    'multi-person ticket at ₹500 per person is exempt',
    { pricePaise: 100_000, personsPerTicket: 2, quantity: 3, taxInclusive: true, ...intra },
    line('exempt', 300_000, 0, 0, 0),
  ],
  // ₹1,000.02 for 2 = ₹500.01 each: taxable. 3 × 1000.02 = 3000.06; / 1.18 = 2542.4237 → 2542.42;
  // tax 457.64 → 228.82 + 228.82.
  [
    'multi-person ticket just above ₹500 per person is taxable',
    { pricePaise: 100_002, personsPerTicket: 2, quantity: 3, taxInclusive: true, ...intra },
    line('intra', 254_242, 22_882, 22_882, 0),
  ],
  // ₹750 incl: 750 / 1.18 = 635.5932 → 635.59; tax 114.41 is odd → taxable 635.60, 57.20 + 57.20.
  [
    'inclusive rounding, odd tax',
    { pricePaise: 75_000, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...intra },
    line('intra', 63_560, 5_720, 5_720, 0),
  ],
  // ₹1,000 × 7 incl: 7000 / 1.18 = 5932.2033 → 5932.20; tax 1067.80. (Per ticket it would be
  // 847.46 × 7 = 5932.22: the line is rounded once, so the total paid is exactly 7000.)
  [
    'inclusive, rounded once per line',
    { pricePaise: 100_000, personsPerTicket: 1, quantity: 7, taxInclusive: true, ...intra },
    line('intra', 593_220, 53_390, 53_390, 0),
  ],
  // ₹500.75 excl: × 0.18 = 90.135 → 90.14 (half-up); CGST 45.07, SGST 45.07.
  [
    'exclusive, half a paisa rounds up',
    { pricePaise: 50_075, personsPerTicket: 1, quantity: 1, taxInclusive: false, ...intra },
    line('intra', 50_075, 4_507, 4_507, 0),
  ],
  // ₹600.05 excl, intra-state: each head on the taxable value at 9 %: 600.05 × 0.09 = 54.0045 → 54.00;
  // CGST 54.00 + SGST 54.00 (not 108.01 split 54.01/54.00 as one 18 % rounding would give).
  [
    'exclusive, each head rounded alone: equal heads',
    { pricePaise: 60_005, personsPerTicket: 1, quantity: 1, taxInclusive: false, ...intra },
    line('intra', 60_005, 5_400, 5_400, 0),
  ],
  // ₹600.05 excl, inter-state: IGST 600.05 × 0.18 = 108.009 → 108.01.
  [
    'exclusive inter-state: one IGST rounding',
    { pricePaise: 60_005, personsPerTicket: 1, quantity: 1, taxInclusive: false, ...inter },
    line('inter', 60_005, 0, 0, 10_801),
  ],
  // ₹999 incl (the paisa-split case): 999 / 1.18 = 846.6101 → 846.61; tax 152.39 is odd → taxable
  // 846.62, CGST 76.19 = SGST 76.19; 846.62 + 152.38 = 999.00 exactly what was paid.
  [
    '₹999 inclusive intra-state: equal heads, the odd paisa in the taxable value',
    { pricePaise: 99_900, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...intra },
    line('intra', 84_662, 7_619, 7_619, 0),
  ],
  // The same ₹999 inter-state: IGST carries the whole 152.39 (no halves to equalise).
  [
    '₹999 inclusive inter-state: IGST keeps the odd paisa',
    { pricePaise: 99_900, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...inter },
    line('inter', 84_661, 0, 0, 15_239),
  ],
  // A ₹499 workshop: entry 81 does not list workshops, so it is taxed. 499 / 1.18 = 422.8813 → 422.88;
  // tax 76.12 → CGST 38.06 + SGST 38.06.
  [
    '₹499 workshop (not listed in entry 81) is taxed',
    {
      pricePaise: 49_900,
      personsPerTicket: 1,
      quantity: 1,
      taxInclusive: true,
      ...intra,
      exemptionApplies: false,
    },
    line('intra', 42_288, 3_806, 3_806, 0),
  ],
  // A ₹499 concert is exempt: ₹499 ≤ ₹500 and concerts are listed.
  [
    '₹499 concert is exempt',
    { pricePaise: 49_900, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...intra },
    line('exempt', 49_900, 0, 0, 0),
  ],
  // 40 % (since 22 September 2025, e.g. IPL-type sporting events): ₹3,500 incl / 1.40 = 2500.00;
  // tax 1000.00 → CGST 20 % 500.00 + SGST 20 % 500.00.
  [
    '40 % inclusive, intra-state',
    {
      pricePaise: 350_000,
      personsPerTicket: 1,
      quantity: 1,
      taxRatePercent: 40,
      taxInclusive: true,
      ...intra,
    },
    line('intra', 250_000, 50_000, 50_000, 0),
  ],
  // A ₹1,000 workshop at 0 % (issue 36): entry 81 does not list workshops, so it is not exempt but
  // nil-rated: 2 × 1000.00 = 2000.00 taxable, no tax, kind 'nil'.
  [
    '₹1,000 workshop at 0 % is nil-rated, not exempt',
    {
      pricePaise: 100_000,
      personsPerTicket: 1,
      quantity: 2,
      taxRatePercent: 0,
      taxInclusive: true,
      ...intra,
      exemptionApplies: false,
    },
    line('nil', 200_000, 0, 0, 0),
  ],
  // A ₹1,000 concert at 0 %: above ₹500, so entry 81 does not reach it either: nil-rated.
  [
    '₹1,000 concert at 0 % is nil-rated',
    {
      pricePaise: 100_000,
      personsPerTicket: 1,
      quantity: 1,
      taxRatePercent: 0,
      taxInclusive: false,
      ...inter,
    },
    line('nil', 100_000, 0, 0, 0),
  ],
  // A ₹400 concert at 0 %: entry 81 exempts it first, whatever the rate: exempt, ₹400.00.
  [
    '₹400 concert at 0 % is still exempt under entry 81',
    { pricePaise: 40_000, personsPerTicket: 1, quantity: 1, taxRatePercent: 0, taxInclusive: true, ...intra },
    line('exempt', 40_000, 0, 0, 0),
  ],
  // 12 %: ₹1,000 incl / 1.12 = 892.857 → 892.86; tax 107.14 IGST.
  [
    'a 12 % event, inter-state',
    {
      pricePaise: 100_000,
      personsPerTicket: 1,
      quantity: 1,
      taxRatePercent: 12,
      taxInclusive: true,
      ...inter,
    },
    line('inter', 89_286, 0, 0, 10_714),
  ],
];

describe('computeTaxLine (hand-worked cases)', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    const got = computeTaxLine(input);
    const { taxRatePercent: _rate, ...amounts } = got;
    expect(amounts).toEqual(expected);
    expect(got.taxRatePercent).toBe(
      expected.kind === 'exempt' || expected.kind === 'nil' ? 0 : (input.taxRatePercent ?? 18),
    );
  });

  it('inclusive lines always total exactly the price paid, exclusive lines the price plus tax', () => {
    for (let price = 50_001; price < 52_000; price += 7) {
      for (const quantity of [1, 3, 10]) {
        const inc = computeTaxLine({
          pricePaise: price,
          personsPerTicket: 1,
          quantity,
          taxInclusive: true,
          ...intra,
        });
        expect(inc.totalPaise).toBe(price * quantity);
        expect(inc.cgstPaise + inc.sgstPaise).toBe(inc.taxPaise);
        expect(inc.cgstPaise).toBe(inc.sgstPaise);
        const exc = computeTaxLine({
          pricePaise: price,
          personsPerTicket: 1,
          quantity,
          taxInclusive: false,
          ...inter,
        });
        expect(exc.totalPaise).toBe(price * quantity + exc.igstPaise);
      }
    }
  });

  it('invoice totals are the sums of the lines', () => {
    const a = computeTaxLine({
      pricePaise: 75_000,
      personsPerTicket: 1,
      quantity: 1,
      taxInclusive: true,
      ...intra,
    });
    const b = computeTaxLine({
      pricePaise: 40_000,
      personsPerTicket: 1,
      quantity: 2,
      taxInclusive: true,
      ...intra,
    });
    expect(sumTaxLines([a, b])).toEqual({
      taxableValuePaise: 63_560 + 80_000,
      cgstPaise: 5_720,
      sgstPaise: 5_720,
      igstPaise: 0,
      taxPaise: 11_440,
      totalPaise: 155_000,
    });
  });

  it('refuses nonsense', () => {
    expect(() =>
      computeTaxLine({ pricePaise: 1.5, personsPerTicket: 1, quantity: 1, taxInclusive: true, ...intra }),
    ).toThrow(RangeError);
    expect(() =>
      computeTaxLine({ pricePaise: 100, personsPerTicket: 0, quantity: 1, taxInclusive: true, ...intra }),
    ).toThrow(RangeError);
  });
});

describe('places of supply', () => {
  it("takes the venue state the organiser stated when it is one of the city area's states (IGST s.12(6))", () => {
    expect(venueStatesOfCity('Delhi/NCR')).toEqual(['Delhi', 'Haryana', 'Uttar Pradesh']);
    expect(venueStatesOfCity('Chandigarh')).toEqual(['Chandigarh', 'Punjab', 'Haryana']);
    expect(venueStatesOfCity('Mumbai')).toEqual(['Maharashtra']);
    expect(defaultVenueState('Mumbai')).toBe('Maharashtra');
    expect(defaultVenueState('Delhi/NCR')).toBeUndefined();
    expect(placeOfSupplyOfEvent({ city: 'Delhi/NCR', venueState: 'Haryana' })).toBe('Haryana');
    expect(placeOfSupplyOfEvent({ city: 'Chandigarh', venueState: 'Punjab' })).toBe('Punjab');
    // No venue state (events saved before issue 36): today's city rule.
    expect(placeOfSupplyOfEvent({ city: 'Delhi/NCR', venueState: null })).toBe('Delhi');
    // A state the city is not in (left over from an earlier city): the city's own state.
    expect(placeOfSupplyOfEvent({ city: 'Mumbai', venueState: 'Haryana' })).toBe('Maharashtra');
  });

  it('says when the venue’s state is still to be chosen: a city spanning states and none of its states', () => {
    expect(venueStateMissing({ city: 'Delhi/NCR', venueState: null })).toBe(true);
    expect(venueStateMissing({ city: 'Chandigarh', venueState: 'Maharashtra' })).toBe(true);
    expect(venueStateMissing({ city: 'Delhi/NCR', venueState: 'Uttar Pradesh' })).toBe(false);
    expect(venueStateMissing({ city: 'Mumbai', venueState: null })).toBe(false);
  });

  it('levies UTGST, not SGST, in the union territories without a legislature', () => {
    for (const ut of [
      'Chandigarh',
      'Dadra and Nagar Haveli and Daman and Diu',
      'Lakshadweep',
      'Andaman and Nicobar Islands',
      'Ladakh',
    ]) {
      expect(stateTaxHeadOf(ut)).toBe('UTGST');
    }
    for (const withLegislature of ['Delhi', 'Puducherry', 'Jammu and Kashmir', 'Punjab']) {
      expect(stateTaxHeadOf(withLegislature)).toBe('SGST');
    }
  });

  it("places the fee for a registered buyer in the GSTIN's state, not the state typed", () => {
    expect(feePlaceOfSupply({ state: 'Maharashtra', buyerGstin: '29AAGCB7383J1Z4' })).toBe('Karnataka');
    expect(feePlaceOfSupply({ state: 'Maharashtra', buyerGstin: null })).toBe('Maharashtra');
  });

  it('maps every listed city (and its aliases) to a state', () => {
    expect(CITIES_WITHOUT_STATE).toEqual([]);
    expect(stateOfCity('Bangalore')).toBe('Karnataka');
    expect(stateOfCity('Mumbai')).toBe('Maharashtra');
    // The city's default, the rule for events without a venue state (issue 36 keeps it as the fallback).
    expect(stateOfCity('Gurgaon')).toBe('Delhi');
    expect(stateOfCity('Atlantis')).toBeUndefined();
  });

  it('reads the state of a GSTIN from its code', () => {
    expect(stateOfGstin('27AAPFU0939F1ZV')).toBe('Maharashtra');
    expect(stateOfGstin('29AAGCB7383J1Z4')).toBe('Karnataka');
    expect(stateOfGstin('99AAPFU0939F1ZV')).toBeUndefined();
  });
});

describe('the rate schedule in force (issue 36, item 9)', () => {
  it('changes at midnight India time of 22 September 2025: 12 and 28 % leave, 40 % joins', () => {
    // 23:59:59 IST on 21 September is 18:29:59 UTC; midnight IST is 18:30:00 UTC.
    const before = new Date('2025-09-21T18:29:59.000Z');
    const from = new Date('2025-09-21T18:30:00.000Z');
    expect([0, 5, 12, 18, 28, 40].filter((r) => isRateInForce(r, before))).toEqual([0, 5, 12, 18, 28]);
    expect([0, 5, 12, 18, 28, 40].filter((r) => isRateInForce(r, from))).toEqual([0, 5, 18, 40]);
  });

  it('the tickets’ rate is the event’s, else the profile’s default, else 18 %', () => {
    expect(ticketTaxRateOf(40, 28)).toBe(40);
    expect(ticketTaxRateOf(null, 28)).toBe(28);
    expect(ticketTaxRateOf(null, null)).toBe(18);
  });
});

describe('the SAC of admission, by kind (issue 36; Scheme of Classification of Services)', () => {
  it('gives each admission kind its 6-digit code, written out here', () => {
    expect(Object.fromEntries(ADMISSION_KINDS.map((kind) => [kind, admissionSacOf(kind)]))).toEqual({
      // Group 99962: performing arts event production and presentation (circus, dance, theatre, drama,
      // ballet, concerts).
      theatre: '999622',
      concert: '999622',
      // Other performing arts and live entertainment services n.e.c.
      awards_or_pageant: '999629',
      // Group 99965: sports event promotion and organisation.
      sporting_event: '999651',
      // Group 99969: other recreation and amusement services n.e.c.
      planetarium: '999699',
      other: '999699',
    });
  });

  it('never gives 999692 (gambling and betting, omitted from the scheme w.e.f. 20-10-2023)', () => {
    for (const kind of ADMISSION_KINDS) expect(admissionSacOf(kind)).not.toBe('999692');
  });

  it('reports an admission line stored with the heading 9996 or with 999692 as 999699', () => {
    expect(reportedSacOf({ sac: '9996' })).toBe('999699');
    expect(reportedSacOf({ sac: '999692' })).toBe('999699');
  });

  it('reports today’s codes, the fee’s and an add-on’s own code as stored', () => {
    for (const sac of ['999622', '999629', '999651', '999699']) expect(reportedSacOf({ sac })).toBe(sac);
    expect(PLATFORM_FEE_SAC).toBe('998599');
    expect(reportedSacOf({ sac: '998599' })).toBe('998599');
    // An add-on keeps the HSN/SAC its organiser gave it, whatever it is.
    expect(reportedSacOf({ sac: '9996', addOn: true })).toBe('9996');
    expect(reportedSacOf({ sac: '61091000', addOn: true })).toBe('61091000');
  });
});

describe('chargedRateOf', () => {
  it('is the line’s rate when taxed, 0 when exempt or nil-rated whatever the event’s rate', () => {
    expect(chargedRateOf({ kind: 'intra', taxRatePercent: 18 })).toBe(18);
    expect(chargedRateOf({ kind: 'inter', taxRatePercent: 5 })).toBe(5);
    expect(chargedRateOf({ kind: 'exempt', taxRatePercent: 18 })).toBe(0);
    expect(chargedRateOf({ kind: 'nil', taxRatePercent: 18 })).toBe(0);
  });
});
