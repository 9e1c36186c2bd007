import { z } from 'zod';
import { emailField } from './auth-schemas.ts';
import { indianMobileDigits } from './indian-mobile.ts';
import { MAX_TICKETS_PER_TYPE } from './pricing.ts';

/** How a box-office booking came about (issue 40, ADR 0042); online bookings have no box-office row. */
export const BOX_OFFICE_KINDS = ['comp', 'door'] as const;
export type BoxOfficeKind = (typeof BOX_OFFICE_KINDS)[number];

/** How a door sale was paid: cash, or UPI to the organiser at the venue. */
export const DOOR_PAYMENT_METHODS = ['cash', 'upi'] as const;
export type DoorPaymentMethod = (typeof DOOR_PAYMENT_METHODS)[number];

/** The sales channel of an order, as the orders CSV names it. */
export type SalesChannel = 'online' | BoxOfficeKind;

export const BOX_OFFICE_MESSAGES = {
  nameRequired: 'Please enter the buyer’s name',
  phoneInvalid: 'Please enter a valid 10-digit mobile number',
  reasonRequired: 'Please say why this booking is complimentary',
  reasonLong: 'Please keep the reason under 200 characters',
  referenceLong: 'Please keep the payment reference under 64 characters',
  ticketsRequired: 'Choose at least one ticket',
  quantityInvalid: `Choose between 1 and ${MAX_TICKETS_PER_TYPE} tickets of a type`,
  duplicateType: 'Each ticket type once, please',
  slotNotFound: 'This show is not part of the event',
  slotCancelled: 'This show was cancelled',
  venueStateUnknown: 'Set the venue’s state in the event’s GST section first',
} as const;

const Line = z.object({
  ticketTypeId: z.string().trim().min(1).max(200),
  quantity: z
    .number({ error: BOX_OFFICE_MESSAGES.quantityInvalid })
    .int(BOX_OFFICE_MESSAGES.quantityInvalid)
    .min(1, BOX_OFFICE_MESSAGES.quantityInvalid)
    .max(MAX_TICKETS_PER_TYPE, BOX_OFFICE_MESSAGES.quantityInvalid),
});

const saleFields = {
  eventId: z.string().trim().min(1).max(200),
  slotId: z.string().trim().min(1).max(200),
  lines: z
    .array(Line)
    .min(1, BOX_OFFICE_MESSAGES.ticketsRequired)
    .max(20, BOX_OFFICE_MESSAGES.ticketsRequired)
    .refine((lines) => new Set(lines.map((l) => l.ticketTypeId)).size === lines.length, {
      message: BOX_OFFICE_MESSAGES.duplicateType,
    }),
  name: z.string().trim().min(1, BOX_OFFICE_MESSAGES.nameRequired).max(100, BOX_OFFICE_MESSAGES.nameRequired),
  email: emailField,
  // Stored as the 10 digits, as at checkout.
  phone: z
    .string()
    .trim()
    .max(30, { message: BOX_OFFICE_MESSAGES.phoneInvalid, abort: true })
    .refine((v) => indianMobileDigits(v) !== null, BOX_OFFICE_MESSAGES.phoneInvalid)
    .transform((v) => indianMobileDigits(v) ?? v),
};

/** A complimentary booking: ₹0, no fee, no invoice; the reason is required. */
export const IssueCompInput = z.object({
  ...saleFields,
  reason: z
    .string()
    .trim()
    .min(1, BOX_OFFICE_MESSAGES.reasonRequired)
    .max(200, BOX_OFFICE_MESSAGES.reasonLong),
});
export type IssueCompInput = z.infer<typeof IssueCompInput>;

/** A sale at the door: the ticket prices (with GST as the event is taxed), paid in cash or by UPI at the venue. */
export const RecordDoorSaleInput = z.object({
  ...saleFields,
  method: z.enum(DOOR_PAYMENT_METHODS),
  reference: z.string().trim().max(64, BOX_OFFICE_MESSAGES.referenceLong).optional(),
  reason: z.string().trim().max(200, BOX_OFFICE_MESSAGES.reasonLong).optional(),
});
export type RecordDoorSaleInput = z.infer<typeof RecordDoorSaleInput>;

/** The box office's look-up: by booking id, name, e-mail or phone. */
export const LookUpOrdersInput = z.object({
  eventId: z.string().trim().min(1).max(200),
  query: z.string().trim().min(2, 'Type at least 2 characters').max(100),
});
export type LookUpOrdersInput = z.infer<typeof LookUpOrdersInput>;
