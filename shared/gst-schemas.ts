import { z } from 'zod';
import { ADMISSION_KINDS, DEFAULT_TAX_RATE, GST_RATE_SCHEDULE, gstinCheckCharacter } from './gst.ts';
import { stateOfGstin } from './gst-states.ts';
import { businessAddressSchema } from './recipient-address.ts';
import { isIndianState } from './states.ts';

/** "22 September 2025": the day the schedule in force began, as the organiser reads it. */
const GST_RATE_SCHEDULE_SINCE_TEXT = new Date(`${GST_RATE_SCHEDULE.since}T00:00:00+05:30`).toLocaleDateString(
  'en-IN',
  { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Asia/Kolkata' },
);

export const GST_MESSAGES = {
  gstinInvalid: 'Please enter a valid 15-character GSTIN (e.g. 27AAPFU0939F1ZV)',
  gstinState: 'The GSTIN’s first two digits must be the state’s GST code',
  legalNameRequired: 'Legal name is required',
  legalNameLong: 'Legal name must be at most 120 characters',
  addressRequired: 'Address is required',
  addressLong: 'Address must be at most 300 characters',
  stateRequired: 'State is required',
  taxRate: `GST rate must be one of the rates in force: ${GST_RATE_SCHEDULE.rates.join(', ')} percent`,
  venueStateRequired: 'Choose the state the venue is in: this city’s area spans more than one state',
  venueStateInvalid: 'Choose one of the states this city’s area is in',
  admissionKindInvalid: 'Choose what kind of event this is',
  plusGstNeedsGstin:
    'Only a GST-registered organiser can add GST on top of ticket prices: add your GSTIN in Organiser profile first',
  buyerLegalNameNeeded: 'Please enter the legal name registered for this GSTIN',
  profileMissing: 'Add your legal name, address and state in Organiser profile first',
  invoiceDetailsMissing:
    'Complete your invoice details (legal name, address and state) in Organiser profile: you are registered for GST, so every booking needs a tax invoice from you.',
  notRegistered:
    'No GST invoice will be issued for your tickets: the organiser profile has no GSTIN, so no GST is charged on them. Buyers get a bill of supply instead.',
  notRegisteredIncomplete:
    'No GST invoice will be issued for your tickets: the organiser profile has no GSTIN, so no GST is charged on them. Buyers get a bill of supply once your legal name, address and state are in Organiser profile.',
  invoiceNotFound: 'Invoice not found',
  /** The buyer's answer at Proceed (and the offer's Pay) while the ticket rate is out of the schedule. */
  saleRateNotInForce: "Tickets for this event can't be sold until the organiser updates its GST rate.",
  /** The organiser's, in the editor and the publish checklist: what to do, and that sales wait for it. */
  rateNotInForce: (ratePercent: number) =>
    `Your tickets' GST rate of ${ratePercent} % is no longer in force (since ${GST_RATE_SCHEDULE_SINCE_TEXT} the rates are ${GST_RATE_SCHEDULE.rates.join(', ')} %). Choose a current rate in this event's GST settings (or your organiser profile's default): until then its tickets are not sold and it cannot be published.`,
  /**
   * Buyers' and organisers' alike (Proceed, the offer's Pay, the door sale, the editor, the publish section):
   * a registered organiser's event in a city whose area spans states, published before the venue's state
   * was asked for (issue 36): its place of supply is unknown, so nothing is sold until it is chosen.
   */
  venueStateNotSet: (city: string) =>
    `This event's venue state is not set: ${city} spans several states, and GST depends on where the event is held. The organiser must choose it in the event's GST settings; until then its tickets are not sold.`,
} as const;

const GSTIN_SHAPE = /^(0[1-9]|[12]\d|3[0-8]|97|99)[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** Format (state code, PAN, entity number, 'Z') and the GSTN mod-36 check character. */
export function isValidGstinValue(value: string): boolean {
  return GSTIN_SHAPE.test(value) && gstinCheckCharacter(value.slice(0, 14)) === value[14];
}

/** A GSTIN as typed: trimmed, upper-cased, then checked (a buyer's GSTIN added after buying). */
const gstinSchema = z
  .string()
  .trim()
  .max(20, { message: GST_MESSAGES.gstinInvalid, abort: true })
  .transform((v) => v.toUpperCase())
  .refine(isValidGstinValue, GST_MESSAGES.gstinInvalid);

/** Optional GSTIN: '' means none. */
const optionalGstinSchema = z
  .string()
  .trim()
  .max(20, { message: GST_MESSAGES.gstinInvalid, abort: true })
  .transform((v) => v.toUpperCase())
  .refine((v) => v === '' || isValidGstinValue(v), GST_MESSAGES.gstinInvalid)
  .default('');

/**
 * A GST rate in percent, one of the current schedule's (shared/gst.ts GST_RATE_SCHEDULE; 18 for admission
 * to most events, 40 for e.g. IPL-type sporting events). Issued invoices keep their own stored rates.
 */
const taxRateSchema = z
  .number({ message: GST_MESSAGES.taxRate })
  .refine((v) => (GST_RATE_SCHEDULE.rates as readonly number[]).includes(v), GST_MESSAGES.taxRate);

/** The organiser's tax profile (console Organiser profile page). */
export const organiserProfileSchema = z
  .object({
    legalName: z.string().trim().min(1, GST_MESSAGES.legalNameRequired).max(120, GST_MESSAGES.legalNameLong),
    address: z.string().trim().min(1, GST_MESSAGES.addressRequired).max(300, GST_MESSAGES.addressLong),
    state: z
      .string()
      .max(100, { message: GST_MESSAGES.stateRequired, abort: true })
      .refine(isIndianState, GST_MESSAGES.stateRequired),
    gstin: optionalGstinSchema,
    defaultTaxRate: taxRateSchema.default(DEFAULT_TAX_RATE),
    taxInclusive: z.boolean().default(true),
  })
  .refine((p) => p.gstin === '' || stateOfGstin(p.gstin) === p.state, {
    message: GST_MESSAGES.gstinState,
    path: ['gstin'],
  });
export type OrganiserProfileInput = z.input<typeof organiserProfileSchema>;
export type OrganiserProfile = z.output<typeof organiserProfileSchema>;

/**
 * Whether an organiser's invoices can be issued (issue 35): a legal name, an address and a state. A profile
 * carried over from the organiser request has no address yet, so it is not complete until saved.
 */
export function isInvoicingProfileComplete(
  profile: { legalName: string; address: string; state: string } | null | undefined,
): boolean {
  return (
    !!profile &&
    profile.legalName.trim() !== '' &&
    profile.address.trim() !== '' &&
    isIndianState(profile.state)
  );
}

/** Invoicing as the publish checklist sees it: registered for GST (a GSTIN), and details complete. */
export interface InvoicingStatus {
  registered: boolean;
  complete: boolean;
}

export function invoicingStatusOf(
  profile: { legalName: string; address: string; state: string; gstin: string | null } | null | undefined,
): InvoicingStatus {
  return { registered: !!profile?.gstin, complete: isInvoicingProfileComplete(profile) };
}

/**
 * What the event editor tells the organiser about GST documents: null when invoices will be issued; the
 * publish blocker when a registered organiser's details are incomplete; else why no GST invoice.
 */
export function invoicingNotice(status: InvoicingStatus): string | null {
  if (status.registered) return status.complete ? null : GST_MESSAGES.invoiceDetailsMissing;
  return status.complete ? GST_MESSAGES.notRegistered : GST_MESSAGES.notRegisteredIncomplete;
}

/**
 * Why a registered organiser's tickets cannot be sold now (issue 36; checkout-taxes.ts
 * `ticketSaleGstProblemOf` decides it): the tickets' rate left the GST schedule, or the event is in a city
 * whose area spans states and its venue's state, the place of supply, was never stated.
 */
export type TicketSaleGstProblem =
  | { kind: 'rateNotInForce'; ratePercent: number }
  | { kind: 'venueStateNotSet'; city: string };

/**
 * What a refused sale says: buyers hear only that the organiser must act (a rate is the organiser's to
 * explain), the organiser what to do; the venue's state reads the same for both.
 */
export function ticketSaleGstProblemMessage(
  problem: TicketSaleGstProblem,
  audience: 'buyer' | 'organiser',
): string {
  if (problem.kind === 'venueStateNotSet') return GST_MESSAGES.venueStateNotSet(problem.city);
  return audience === 'buyer'
    ? GST_MESSAGES.saleRateNotInForce
    : GST_MESSAGES.rateNotInForce(problem.ratePercent);
}

/**
 * The event editor's GST settings (issue 36): the rate (null: the organiser profile's default), the
 * venue's state, which is the place of supply (null: the city's state; it must be one of the city's
 * states, checked by the service, which knows the city), and the kind of admission (null: the
 * category's default). Left out, the venue state and kind keep their stored values.
 */
export const eventTaxRateSchema = z.object({
  eventId: z.string().min(1).max(200),
  taxRate: taxRateSchema.nullable(),
  venueState: z
    .string()
    .max(100, { message: GST_MESSAGES.venueStateInvalid, abort: true })
    .refine(isIndianState, GST_MESSAGES.venueStateInvalid)
    .nullable()
    .optional(),
  admissionKind: z
    .enum(ADMISSION_KINDS, { message: GST_MESSAGES.admissionKindInvalid })
    .nullable()
    .optional(),
  /** Prices include GST (true) or have it added on top (false, issue 40); null: the profile's. */
  taxInclusive: z.boolean().nullable().optional(),
});

/** Buyer's GST details at checkout: both optional; a GSTIN needs the legal name it is registered to. */
export const buyerGstFields = {
  buyerGstin: optionalGstinSchema.optional(),
  buyerLegalName: z.string().trim().max(120, GST_MESSAGES.legalNameLong).optional(),
};

export const bookingInvoiceSchema = z.object({ bookingId: z.string().min(1).max(200) });
/** One page of the orders table (at most 100 rows). */
export const eventInvoicesSchema = z.object({ bookings: z.array(z.string().min(1).max(200)).max(100) });
export const invoiceMonthSchema = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Month must look like 2026-04'),
});

/** A GSTIN added to a booking after buying (My Bookings). */
export const addBuyerGstinSchema = z.object({
  bookingId: z.string().min(1).max(200),
  buyerGstin: gstinSchema,
  buyerLegalName: z
    .string()
    .trim()
    .min(1, GST_MESSAGES.buyerLegalNameNeeded)
    .max(120, GST_MESSAGES.legalNameLong),
  /** A B2B invoice shows the recipient's address (Rule 46(e)), with its PIN (the IRP's): the re-issue needs one. */
  buyerAddress: businessAddressSchema,
});
