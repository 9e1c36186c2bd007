import { describe, expect, it } from 'vitest';
import type { InvoiceLine } from '../../db/schema/invoices.ts';
import { leftOn, linesLeft, totalsOf } from './left-after-part-credits.ts';

/** 3 × ₹500 + 18 % GST on top, intra-state: 150,000 + CGST 13,500 + SGST 13,500 = 177,000. */
const GOLD: InvoiceLine = {
  description: 'Show: Gold',
  sac: '999622',
  quantity: 3,
  unitPricePaise: 50_000,
  personsPerTicket: 1,
  kind: 'intra',
  taxRatePercent: 18,
  taxableValuePaise: 150_000,
  cgstPaise: 13_500,
  sgstPaise: 13_500,
  igstPaise: 0,
  totalPaise: 177_000,
};
/** A ₹100 add-on at 5 % on top: 10,000 + 250 + 250. */
const PARKING: InvoiceLine = {
  ...GOLD,
  description: 'Show: Parking',
  quantity: 1,
  unitPricePaise: 10_000,
  taxRatePercent: 5,
  taxableValuePaise: 10_000,
  cgstPaise: 250,
  sgstPaise: 250,
  totalPaise: 10_500,
  addOn: true,
};
const INVOICE = {
  lines: [GOLD, PARKING],
  taxInclusive: false,
  supplierState: 'Maharashtra',
  placeOfSupply: 'Maharashtra',
  ...totalsOf([GOLD, PARKING]),
};

describe('linesLeft', () => {
  it('one Gold ticket of three cancelled for its price: two Gold (100,000 + 9,000 + 9,000) and the add-on whole', () => {
    const credited = {
      taxableValuePaise: 50_000,
      cgstPaise: 4_500,
      sgstPaise: 4_500,
      igstPaise: 0,
      totalPaise: 59_000,
    };
    const lines = linesLeft(INVOICE, () => 2, leftOn(INVOICE, credited));
    expect(lines).toEqual([
      {
        ...GOLD,
        quantity: 2,
        taxableValuePaise: 100_000,
        cgstPaise: 9_000,
        sgstPaise: 9_000,
        totalPaise: 118_000,
      },
      PARKING,
    ]);
  });

  it('an amount that is not whole tickets: each line in proportion, CGST = SGST, the lines add up to what is left', () => {
    // 18,750 back of 187,500: heads round(13,750 × 0.1) = 1,375 each; left 168,750 = 144,000 + 12,375 × 2.
    const credited = {
      taxableValuePaise: 16_000,
      cgstPaise: 1_375,
      sgstPaise: 1_375,
      igstPaise: 0,
      totalPaise: 18_750,
    };
    const left = leftOn(INVOICE, credited);
    const lines = linesLeft(INVOICE, () => 3, left);
    // Gold: 177,000 × 0.9 = 159,300; CGST = SGST = 12,150; taxable 135,000. Parking the rest:
    // 9,450 = 9,000 + 225 + 225.
    expect(
      lines.map(({ taxableValuePaise, cgstPaise, sgstPaise, totalPaise }) => [
        taxableValuePaise,
        cgstPaise,
        sgstPaise,
        totalPaise,
      ]),
    ).toEqual([
      [135_000, 12_150, 12_150, 159_300],
      [9_000, 225, 225, 9_450],
    ]);
    expect(totalsOf(lines)).toEqual(left);
  });
});
