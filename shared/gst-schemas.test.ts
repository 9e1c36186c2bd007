import { describe, expect, it } from 'vitest';
import { gstinCheckCharacter } from './gst.ts';
import {
  addBuyerGstinSchema,
  GST_MESSAGES,
  invoicingNotice,
  invoicingStatusOf,
  isValidGstinValue,
  organiserProfileSchema,
} from './gst-schemas.ts';
import { RECIPIENT_ADDRESS_MESSAGES } from './recipient-address.ts';

/** The GSTIN field of its one user: a buyer adding their GSTIN to a booking after buying. */
const gstinSchema = addBuyerGstinSchema.shape.buyerGstin;

describe('GSTIN check character', () => {
  it('matches a worked example', () => {
    // 27AAPFU0939F1Z: values 2,7,10,10,25,15,30,0,9,3,9,15,1,35 × weights 1,2,1,2…; each product's
    // quotient + remainder by 36 sum to 221; (36 − 221 mod 36) mod 36 = 31 → 'V'.
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
  });

  it.each([
    '27AAPFU0939F1ZV',
    '29AAGCB7383J1Z4',
    '07AAACJ1234K1ZS',
    '29ABCDE1234F2ZV',
    '33AAAPL1234C1ZL',
    '19AAACR5055K1Z4',
  ])('accepts %s', (gstin) => {
    expect(isValidGstinValue(gstin)).toBe(true);
    expect(gstinSchema.parse(` ${gstin.toLowerCase()} `)).toBe(gstin);
  });

  it.each([
    ['27AAPFU0939F1ZW', 'wrong check character'],
    ['07AAACJ1234K1ZT', 'wrong check character'],
    ['19AAACR5055K1Z5', 'wrong check character'],
    ['39AAPFU0939F1ZV', 'no such state code'],
    ['27AAPFU0939F1XV', 'no Z in the 14th place'],
    ['27AAPFU0939F1Z', 'too short'],
    ['27AAPF10939F1ZV', 'PAN shape broken'],
  ])('refuses %s (%s)', (gstin) => {
    expect(isValidGstinValue(gstin)).toBe(false);
    const parsed = gstinSchema.safeParse(gstin);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(GST_MESSAGES.gstinInvalid);
  });
});

describe('organiserProfileSchema', () => {
  const valid = {
    legalName: 'Tala Collective LLP',
    address: '12 Hill Road, Bandra, Mumbai 400050',
    state: 'Maharashtra',
    gstin: '27aapfu0939f1zv',
  };
  it('defaults to 18 % tax-inclusive and upper-cases the GSTIN', () => {
    expect(organiserProfileSchema.parse(valid)).toMatchObject({
      gstin: '27AAPFU0939F1ZV',
      defaultTaxRate: 18,
      taxInclusive: true,
    });
  });
  it('wants the GSTIN to belong to the chosen state', () => {
    const parsed = organiserProfileSchema.safeParse({ ...valid, state: 'Karnataka' });
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['gstin'], message: GST_MESSAGES.gstinState });
  });
  it('accepts the rates in force since 22 September 2025 (0, 5, 18, 40 %) and no others (issue 36)', () => {
    for (const rate of [0, 5, 18, 40]) {
      expect(organiserProfileSchema.safeParse({ ...valid, defaultTaxRate: rate }).success).toBe(true);
    }
    // 12 and 28 % were removed from the schedule; 12.345 and 41 were never rates.
    for (const rate of [12, 28, 12.345, 41]) {
      expect(
        organiserProfileSchema.safeParse({ ...valid, defaultTaxRate: rate }).error?.issues[0]?.message,
      ).toBe(GST_MESSAGES.taxRate);
    }
  });
});

describe('invoicing status (issue 35)', () => {
  const carried = {
    legalName: 'Sur Sangam Events',
    address: '',
    state: 'Maharashtra',
    gstin: '27AAPFU0939F1ZV',
  };
  it('a profile carried over from the request, without an address, is not complete and blocks a registered organiser', () => {
    expect(invoicingStatusOf(carried)).toEqual({ registered: true, complete: false });
    expect(invoicingNotice(invoicingStatusOf(carried))).toBe(GST_MESSAGES.invoiceDetailsMissing);
    expect(invoicingNotice(invoicingStatusOf({ ...carried, address: '  ' }))).toBe(
      GST_MESSAGES.invoiceDetailsMissing,
    );
  });
  it('a complete registered profile needs no notice; an unregistered organiser is told why no GST invoice', () => {
    const complete = { ...carried, address: '12 Hill Road, Mumbai' };
    expect(invoicingNotice(invoicingStatusOf(complete))).toBeNull();
    expect(invoicingNotice(invoicingStatusOf({ ...complete, gstin: null }))).toBe(GST_MESSAGES.notRegistered);
    expect(invoicingNotice(invoicingStatusOf(null))).toBe(GST_MESSAGES.notRegisteredIncomplete);
    expect(invoicingStatusOf({ ...complete, state: 'Atlantis' }).complete).toBe(false);
  });
});

describe('adding a GSTIN after buying', () => {
  const added = { bookingId: 'JB1', buyerGstin: '27AAPFU0939F1ZV', buyerLegalName: 'Asha Ltd' };

  it("asks the business's address for its PIN code, as the checkout does", () => {
    const noPin = addBuyerGstinSchema.safeParse({ ...added, buyerAddress: '12 Hill Road, Bandra, Mumbai' });
    expect(noPin.error?.issues[0]).toMatchObject({
      path: ['buyerAddress'],
      message: RECIPIENT_ADDRESS_MESSAGES.businessPin,
    });
    expect(
      addBuyerGstinSchema.safeParse({ ...added, buyerAddress: '12 Hill Road, Mumbai 400050' }).success,
    ).toBe(true);
  });
});

describe('a sale refused for a venue state not set', () => {
  it('names the city whose area spans states', () => {
    expect(GST_MESSAGES.venueStateNotSet('Delhi/NCR')).toContain('Delhi/NCR spans several states');
  });
});
