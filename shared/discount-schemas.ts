import { z } from 'zod';
import { selectedTicketSchema } from './checkout-schemas.ts';
import { EventIdInput } from './organiser-schemas.ts';

/**
 * Discount codes (issue 40): a percentage or a fixed amount off each ticket's price, before tax, as
 * pretix's vouchers do ("reduce the price by" per position). The server prices with these functions
 * and the checkout only shows the server's quote; the refusal messages are defined here once.
 */

export const MAX_CODE_LENGTH = 40;
/** Codes are letters, digits, '-' and '_': what a poster or a text message carries unchanged. */
const CODE_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Why a code cannot be applied, one message per reason (shown as is at the checkout). */
export const DISCOUNT_REFUSALS = {
  unknown: 'This code does not exist for this event.',
  notYetValid: 'This code is not valid yet.',
  expired: 'This code has expired.',
  usedUp: 'This code has been used up.',
  notForTickets: 'This code is not valid for the tickets you chose.',
  alreadyUsed: 'You have already used this code as many times as it allows.',
} as const;
export type DiscountRefusal = keyof typeof DISCOUNT_REFUSALS;
/** 'none': an access code only (ADR 0038), which unlocks hidden ticket types without changing a price. */
export type DiscountKind = 'percent' | 'fixed' | 'none';

export const DISCOUNT_MESSAGES = {
  codeRequired: 'Enter a code',
  codeLong: `A code has at most ${MAX_CODE_LENGTH} characters`,
  codeCharacters: 'A code has only letters, digits, - and _',
  codeTaken: 'This event already has a code with that name (codes ignore upper and lower case)',
  percentRange: 'A percentage is a whole number from 1 to 100',
  amountPositive: 'An amount off is a whole number of paise, at least 1',
  limitPositive: 'A limit is a whole number, at least 1 (leave it empty for none)',
  windowOrder: 'The code must end after it starts',
  instantInvalid: 'Please enter a valid date and time',
  typeUnknown: 'A chosen ticket type is not one of this event’s',
  codeNotFound: 'Discount code not found',
  unlocksNothing: 'A code without a discount must unlock at least one hidden ticket type',
} as const;

const codeField = z
  .string()
  .trim()
  .min(1, DISCOUNT_MESSAGES.codeRequired)
  .max(MAX_CODE_LENGTH, DISCOUNT_MESSAGES.codeLong)
  .regex(CODE_PATTERN, DISCOUNT_MESSAGES.codeCharacters);
const instant = z.iso.datetime({ offset: true, message: DISCOUNT_MESSAGES.instantInvalid }).nullable();
const limit = z
  .number(DISCOUNT_MESSAGES.limitPositive)
  .int(DISCOUNT_MESSAGES.limitPositive)
  .min(1, DISCOUNT_MESSAGES.limitPositive)
  .max(1_000_000, DISCOUNT_MESSAGES.limitPositive)
  .nullable();

/** What the organiser sets: the discount itself, its ticket types, window and limits. */
const DiscountFields = z
  .object({
    code: codeField,
    kind: z.enum(['percent', 'fixed', 'none']),
    /** Whole percent (kind 'percent'). */
    percentOff: z
      .number(DISCOUNT_MESSAGES.percentRange)
      .int(DISCOUNT_MESSAGES.percentRange)
      .min(1, DISCOUNT_MESSAGES.percentRange)
      .max(100, DISCOUNT_MESSAGES.percentRange)
      .nullable(),
    /** Paise off each ticket (kind 'fixed'). */
    amountOffPaise: z
      .number(DISCOUNT_MESSAGES.amountPositive)
      .int(DISCOUNT_MESSAGES.amountPositive)
      .min(1, DISCOUNT_MESSAGES.amountPositive)
      .max(100_000_000, DISCOUNT_MESSAGES.amountPositive)
      .nullable(),
    /** Null: every ticket type of the event. */
    ticketTypeIds: z.array(z.string().min(1).max(200)).min(1).max(200).nullable(),
    validFrom: instant,
    validUntil: instant,
    maxUses: limit,
    maxUsesPerBuyer: limit,
    /** The hidden ticket types it shows and sells (an access code, ADR 0038); null: none. */
    unlocksTicketTypeIds: z.array(z.string().min(1).max(200)).min(1).max(200).nullable().default(null),
  })
  .refine((d) => d.kind !== 'percent' || d.percentOff !== null, {
    message: DISCOUNT_MESSAGES.percentRange,
    path: ['percentOff'],
  })
  .refine((d) => d.kind !== 'fixed' || d.amountOffPaise !== null, {
    message: DISCOUNT_MESSAGES.amountPositive,
    path: ['amountOffPaise'],
  })
  .refine((d) => d.kind !== 'none' || d.unlocksTicketTypeIds !== null, {
    message: DISCOUNT_MESSAGES.unlocksNothing,
    path: ['unlocksTicketTypeIds'],
  })
  .refine((d) => !d.validFrom || !d.validUntil || Date.parse(d.validUntil) > Date.parse(d.validFrom), {
    message: DISCOUNT_MESSAGES.windowOrder,
    path: ['validUntil'],
  });
export type DiscountFields = z.output<typeof DiscountFields>;

export const CreateDiscountCodeInput = z.object({ ...EventIdInput.shape, code: DiscountFields });
export const UpdateDiscountCodeInput = z.object({
  ...EventIdInput.shape,
  discountCodeId: z.string().min(1).max(200),
  code: DiscountFields,
});
export const SetDiscountCodeActiveInput = z.object({
  ...EventIdInput.shape,
  discountCodeId: z.string().min(1).max(200),
  isActive: z.boolean(),
});

/**
 * The checkout's "Apply code": the selection priced with the code, by the server. A code longer than
 * any code can be is refused as unknown rather than looked up.
 */
export const QuoteDiscountInput = z.object({
  eventId: z.string().min(1).max(200),
  selectedSlot: z.string().min(1).max(200),
  selectedTickets: z.array(selectedTicketSchema).min(1).max(20),
  discountCode: z
    .string()
    .trim()
    .min(1, DISCOUNT_MESSAGES.codeRequired)
    .max(MAX_CODE_LENGTH, DISCOUNT_REFUSALS.unknown),
});
export type QuoteDiscountInput = z.infer<typeof QuoteDiscountInput>;

/** The form of a code as matched: codes are case-insensitive. */
export function codeKeyOf(code: string): string {
  return code.trim().toLowerCase();
}

export interface DiscountTerms {
  kind: DiscountKind;
  percentOff: number | null;
  amountOffPaise: number | null;
  ticketTypeIds: readonly string[] | null;
}

/**
 * Paise off one ticket of a type: a percentage of its price rounded half-up to the paisa, or the fixed
 * amount, never more than the price itself; 0 when the code is not for the type.
 */
export function discountPerTicket(terms: DiscountTerms, ticketTypeId: string, pricePaise: number): number {
  if (terms.kind === 'none') return 0;
  if (terms.ticketTypeIds && !terms.ticketTypeIds.includes(ticketTypeId)) return 0;
  const off =
    terms.kind === 'percent'
      ? Math.floor((2 * pricePaise * (terms.percentOff ?? 0) + 100) / 200)
      : (terms.amountOffPaise ?? 0);
  return Math.min(off, pricePaise);
}

/** How a code reads in the console and the export: "20% off" or "₹100.00 off each ticket". */
export function describeDiscount(
  terms: Pick<DiscountTerms, 'kind' | 'percentOff' | 'amountOffPaise'>,
): string {
  if (terms.kind === 'percent') return `${terms.percentOff}% off`;
  if (terms.kind === 'none') return 'No discount (access only)';
  const paise = terms.amountOffPaise ?? 0;
  return `₹${(paise / 100).toFixed(2)} off each ticket`;
}
