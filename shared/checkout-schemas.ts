import { z } from 'zod';
import { SelectedAddOns } from './add-on-schemas.ts';
import { buyerGstFields, GST_MESSAGES } from './gst-schemas.ts';
import { indianMobileDigits } from './indian-mobile.ts';
import { perOrderMaxMessage } from './per-order-max.ts';
import { MAX_TICKETS_PER_TYPE } from './pricing.ts';
import { checkoutAnswersSchema } from './question-schemas.ts';
import { optionalRecipientAddressSchema, recipientAddressSchemaFor } from './recipient-address.ts';
import { isIndianState } from './states.ts';

/** Shown above the list of every failed checkout rule (spec §5). */
export const CHECKOUT_INCOMPLETE_HEADING = 'Please complete all required fields:';

/** Non-space text, an at sign, a domain and a dot (spec §5). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/**
 * Spec §5, applied after removing spaces, dashes and parentheses: optional +91 with an optional
 * separator, optional 0, optional 91, then a digit 6-9 and nine more digits.
 */
const INDIAN_PHONE = /^(?:\+91[\s-]?)?0?(?:91)?[6-9]\d{9}$/;
/** Room for '+91 0 98765-43210' and the like with spaces, dashes and parentheses. */
const PHONE_MAX = 30;
const NAME_MAX = 100;
const EMAIL_MAX = 254;
/** Ids the client copies from the server's answers (events, dates, slots, ticket types, orders, holds). */
const ID_MAX = 200;

export function normalisePhone(phone: string): string {
  return phone.replace(/[\s\-()]/g, '');
}

/** The checkout's Ticket Details (name, e-mail, phone, state), checked on Proceed and on the server. */
export const ticketDetailsSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(NAME_MAX, 'Name must be at most 100 characters'),
    email: z
      .string()
      .trim()
      .min(1, 'Email is required')
      // abort: the shape's regex backtracks on a long input.
      .max(EMAIL_MAX, { message: 'Email must be at most 254 characters', abort: true })
      .regex(EMAIL_SHAPE, 'Please enter a valid email address'),
    phone: z
      .string()
      .trim()
      .min(1, 'Phone number is required')
      .max(PHONE_MAX, { message: 'Please enter a valid phone number', abort: true })
      .refine((v) => INDIAN_PHONE.test(normalisePhone(v)), 'Please enter a valid phone number')
      // Stored as the 10 digits, as on sign-up and the profile (issue 17).
      .transform((v) => indianMobileDigits(normalisePhone(v)) ?? v),
    state: z
      .string()
      .min(1, 'State is required')
      .max(100, { message: 'State is required', abort: true })
      .refine((v) => isIndianState(v), 'State is required'),
    /** Optional (issue 16): a business buyer's GSTIN and legal name, printed on the GST invoice. */
    ...buyerGstFields,
    /**
     * The billing address, asked for only when the GST invoice must show it (shared/recipient-address.ts):
     * whether it is required depends on the order's value, so Proceed checks that once it has priced it.
     */
    buyerAddress: optionalRecipientAddressSchema,
  })
  .refine((d) => !d.buyerGstin || !!d.buyerLegalName, {
    message: GST_MESSAGES.buyerLegalNameNeeded,
    path: ['buyerLegalName'],
  });
export type TicketDetails = z.infer<typeof ticketDetailsSchema>;

type DetailsDraft = Partial<Record<keyof TicketDetails, string>>;
const DETAIL_FIELDS = [
  'name',
  'email',
  'phone',
  'state',
  'buyerGstin',
  'buyerLegalName',
  'buyerAddress',
] as const;

/** `addressRequired`: shared/recipient-address.ts's rule for this order (the server checks it again). */
interface DetailsOptions {
  addressRequired?: boolean;
}

/** Every message the details fail with, in form order, for the one 'Please complete all required fields:' list. */
export function ticketDetailsProblems(details: DetailsDraft, options: DetailsOptions = {}): string[] {
  const perField = ticketDetailsFieldProblems(details, options);
  return DETAIL_FIELDS.flatMap((field) => (perField[field] ? [perField[field]] : []));
}

/** The first message per field, shown beside each field as well as in the list. */
export function ticketDetailsFieldProblems(
  details: DetailsDraft,
  options: DetailsOptions = {},
): DetailsDraft {
  const parsed = ticketDetailsSchema.safeParse({
    name: details.name ?? '',
    email: details.email ?? '',
    phone: details.phone ?? '',
    state: details.state ?? '',
    buyerGstin: details.buyerGstin ?? '',
    buyerLegalName: details.buyerLegalName ?? '',
    buyerAddress: details.buyerAddress ?? '',
  });
  const problems: DetailsDraft = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0] as keyof TicketDetails;
    problems[field] ??= issue.message;
  }
  if (options.addressRequired) {
    const address = recipientAddressSchemaFor(details).safeParse(details.buyerAddress ?? '');
    if (!address.success) problems.buyerAddress ??= address.error.issues[0]?.message;
  }
  return problems;
}

/** Ticket types in one order: more than a slot sensibly has, far fewer than a hostile list. */
const MAX_LINES = 20;

export const selectedTicketSchema = z.object({
  ticketTypeId: z.string().min(1).max(ID_MAX),
  quantity: z.number().int().min(1).max(MAX_TICKETS_PER_TYPE, perOrderMaxMessage(MAX_TICKETS_PER_TYPE)),
});

/**
 * Proceed on the checkout: reserve the seats and open a payment order. No amount is accepted: the
 * server prices the hold itself (anything else the client sends is stripped by zod).
 */
export const startCheckoutSchema = z.object({
  eventId: z.string().min(1, 'Required field missing: eventId').max(ID_MAX),
  selectedDate: z.string().min(1, 'Required field missing: selectedDate').max(ID_MAX),
  selectedSlot: z.string().min(1, 'Required field missing: selectedSlot').max(ID_MAX),
  selectedTickets: z
    .array(selectedTicketSchema)
    .min(1, 'Required field missing: selectedTickets')
    .max(MAX_LINES, `At most ${MAX_LINES} ticket types`)
    .refine(
      (lines) => new Set(lines.map((l) => l.ticketTypeId)).size === lines.length,
      'Each ticket type once',
    ),
  ticketDetails: ticketDetailsSchema,
  /** The city the visitor chose in the top bar (local storage), kept on the booking as userCity. */
  userCity: z.string().trim().max(100).optional(),
  /** The waiting room's admission pass (issue 19): required while the event's waiting room is on. */
  admissionPass: z.string().max(600).optional(),
  /**
   * A discount code (issue 40), priced and counted by the server. Longer than any code can be: refused
   * as unknown (the message is shared/discount-schemas.ts's; repeated here to keep this file's imports).
   */
  discountCode: z
    .string()
    .trim()
    .max(40, 'This code does not exist for this event.')
    .optional()
    .transform((code) => code || undefined),
  /** Attendee names and answers to the ticket types' questions (issue 40), checked by Proceed. */
  answers: checkoutAnswersSchema,
  /** Add-ons sold with the tickets (issue 40, ADR 0041): variants and quantities; the server prices them. */
  addOns: SelectedAddOns,
});
export type StartCheckoutInput = z.infer<typeof startCheckoutSchema>;

/** What the payment window hands back on success; verified on the server against the stored order. */
export const confirmPaymentSchema = z.object({
  orderId: z.string().min(1, 'Checkout data is missing').max(ID_MAX),
  paymentId: z.string().min(1, 'Payment ID is missing').max(ID_MAX),
  signature: z
    .string()
    .min(1, 'Failed to complete booking. Please contact support.')
    .max(ID_MAX, 'Failed to complete booking. Please contact support.'),
});
export type ConfirmPaymentInput = z.infer<typeof confirmPaymentSchema>;

export const RELEASE_REASONS = ['cancelled', 'failed', 'expired'] as const;
export const releaseHoldSchema = z.object({
  holdId: z.string().min(1).max(ID_MAX),
  reason: z.enum(RELEASE_REASONS),
});
