import { z } from 'zod';

/** Messages the console and My Bookings show, and the server sends back for bad input (issue 40). */
export const PART_REFUND_MESSAGES = {
  amountRequired: 'Enter the amount to refund, or choose “Everything but the fee”.',
  amountPositive: 'Enter an amount above ₹0.',
  amountWhole: 'Enter the amount in paise as a whole number.',
  reasonShort: 'Say why you are refunding (at least 3 characters); the buyer reads it.',
  reasonLong: 'Keep the reason to 500 characters.',
  ticketsTooMany: 'Choose at most 20 ticket types.',
  quantityPositive: 'Cancel at least one ticket of each type you chose.',
  ticketsRequired: 'Choose the tickets to cancel.',
} as const;

/** Tickets of one type to cancel. */
export const CancelTicketsLine = z.object({
  ticketTypeId: z.string().trim().min(1).max(200),
  quantity: z
    .number({ error: PART_REFUND_MESSAGES.quantityPositive })
    .int(PART_REFUND_MESSAGES.quantityPositive)
    .min(1, PART_REFUND_MESSAGES.quantityPositive)
    .max(10_000, PART_REFUND_MESSAGES.quantityPositive),
});
export type CancelTicketsLine = z.infer<typeof CancelTicketsLine>;

/**
 * The organiser's "Refund part" of one booking: an amount in paise (or everything but the convenience fee
 * and its GST), the reason the buyer is told, and optionally some of its tickets to cancel.
 */
export const RefundPartInput = z
  .object({
    eventId: z.string().min(1).max(100),
    bookingId: z.string().min(1).max(100),
    allButFee: z.boolean().default(false),
    amountPaise: z
      .number({ error: PART_REFUND_MESSAGES.amountWhole })
      .int(PART_REFUND_MESSAGES.amountWhole)
      .min(1, PART_REFUND_MESSAGES.amountPositive)
      .max(1_000_000_000_00, PART_REFUND_MESSAGES.amountWhole)
      .optional(),
    reason: z
      .string()
      .trim()
      .min(3, PART_REFUND_MESSAGES.reasonShort)
      .max(500, PART_REFUND_MESSAGES.reasonLong),
    cancelTickets: z.array(CancelTicketsLine).max(20, PART_REFUND_MESSAGES.ticketsTooMany).default([]),
  })
  .refine((v) => v.allButFee || v.amountPaise !== undefined, {
    message: PART_REFUND_MESSAGES.amountRequired,
    path: ['amountPaise'],
  });
export type RefundPartInput = z.input<typeof RefundPartInput>;
export type RefundPartValues = z.output<typeof RefundPartInput>;

/** The buyer's "Cancel some tickets" of their own booking, under the event's refund policy. */
export const CancelSomeTicketsInput = z.object({
  bookingId: z.string().trim().min(1).max(200),
  tickets: z
    .array(CancelTicketsLine)
    .min(1, PART_REFUND_MESSAGES.ticketsRequired)
    .max(20, PART_REFUND_MESSAGES.ticketsTooMany),
});
export type CancelSomeTicketsInput = z.infer<typeof CancelSomeTicketsInput>;
