import { z } from 'zod';
import { GST_RATE_SCHEDULE } from './gst.ts';
import { formatCount } from './money.ts';
import { EventIdInput } from './organiser-schemas.ts';

/**
 * Add-ons (issue 40, ADR 0041): products sold with a ticket (parking, a T-shirt in sizes, a food
 * voucher), each with its own price, GST rate and HSN/SAC code, and its stock per variant. The console's
 * form, the procedures and the checkout use these schemas; the messages are defined here once.
 */

export const MAX_ADD_ON_PRICE_PAISE = 10_000_000;
export const MAX_ADD_ON_STOCK = 100_000;
export const MAX_ADD_ON_PER_ORDER = 20;
export const MAX_ADD_ON_VARIANTS = 20;

export const ADD_ON_MESSAGES = {
  nameRequired: 'Enter a name',
  nameLong: 'A name has at most 80 characters',
  descriptionLong: 'A description has at most 500 characters',
  price: `A price is a whole number of paise from 0 to ${formatCount(MAX_ADD_ON_PRICE_PAISE)}`,
  rate: `Choose a GST rate of ${GST_RATE_SCHEDULE.rates.join(', ')} %`,
  hsnSac: 'An HSN or SAC code is 4 to 8 digits',
  perOrder: `At most 1 to ${MAX_ADD_ON_PER_ORDER} per order`,
  stock: `Stock is a whole number from 0 to ${formatCount(MAX_ADD_ON_STOCK)}`,
  variantName: 'A variant name has at most 40 characters',
  variantsRequired: 'Add at least one variant (one without a name when it has no sizes)',
  variantsUnique: 'Each variant name once',
  typeUnknown: 'A chosen ticket type is not one of this event’s',
  belowTaken: (name: string, taken: number) =>
    `${name || 'The stock'} cannot be less than the ${taken} already sold or held`,
  notFound: 'Add-on not found',
  variantNotFound: 'This add-on is no longer available',
  notForTypes: (name: string) => `${name} cannot be bought with the chosen tickets`,
  overMax: (name: string, max: number) => `At most ${max} × ${name} per order`,
  soldOut: (name: string) => `${name}: Sold Out`,
  insufficient: (name: string) => `Not enough ${name} left`,
  bookingNotFound: 'Booking not found',
  lineNotFound: 'This add-on is not part of the booking',
} as const;

const idField = z.string().min(1).max(200);

export const AddOnVariantFields = z.object({
  /** An existing variant's id when editing; absent for a new one. */
  id: idField.optional(),
  name: z.string().trim().max(40, ADD_ON_MESSAGES.variantName),
  stock: z
    .number(ADD_ON_MESSAGES.stock)
    .int(ADD_ON_MESSAGES.stock)
    .min(0, ADD_ON_MESSAGES.stock)
    .max(MAX_ADD_ON_STOCK, ADD_ON_MESSAGES.stock),
});

/** What the organiser sets for one add-on. */
export const AddOnFields = z.object({
  name: z.string().trim().min(1, ADD_ON_MESSAGES.nameRequired).max(80, ADD_ON_MESSAGES.nameLong),
  description: z.string().trim().max(500, ADD_ON_MESSAGES.descriptionLong).default(''),
  pricePaise: z
    .number(ADD_ON_MESSAGES.price)
    .int(ADD_ON_MESSAGES.price)
    .min(0, ADD_ON_MESSAGES.price)
    .max(MAX_ADD_ON_PRICE_PAISE, ADD_ON_MESSAGES.price),
  /** One of the schedule's rates (shared/gst.ts); never the admission slab by default. */
  taxRatePercent: z
    .number(ADD_ON_MESSAGES.rate)
    .refine((rate) => (GST_RATE_SCHEDULE.rates as readonly number[]).includes(rate), ADD_ON_MESSAGES.rate),
  hsnSac: z
    .string()
    .trim()
    .regex(/^\d{4,8}$/, ADD_ON_MESSAGES.hsnSac),
  maxPerOrder: z
    .number(ADD_ON_MESSAGES.perOrder)
    .int(ADD_ON_MESSAGES.perOrder)
    .min(1, ADD_ON_MESSAGES.perOrder)
    .max(MAX_ADD_ON_PER_ORDER, ADD_ON_MESSAGES.perOrder),
  /** Only with these ticket types; null or empty: with any of the event's. */
  ticketTypeIds: z.array(idField).max(200).nullable().default(null),
  isActive: z.boolean().default(true),
  variants: z
    .array(AddOnVariantFields)
    .min(1, ADD_ON_MESSAGES.variantsRequired)
    .max(MAX_ADD_ON_VARIANTS)
    .refine(
      (variants) => new Set(variants.map((v) => v.name.toLowerCase())).size === variants.length,
      ADD_ON_MESSAGES.variantsUnique,
    ),
});
export type AddOnFields = z.output<typeof AddOnFields>;

export const CreateAddOnInput = z.object({ ...EventIdInput.shape, addOn: AddOnFields });
export const UpdateAddOnInput = z.object({ ...EventIdInput.shape, addOnId: idField, addOn: AddOnFields });

/** The buyer's choice at checkout: a variant and how many. */
export const SelectedAddOn = z.object({
  variantId: idField,
  quantity: z.number().int().min(1).max(MAX_ADD_ON_PER_ORDER),
});
export type SelectedAddOn = z.output<typeof SelectedAddOn>;
export const SelectedAddOns = z
  .array(SelectedAddOn)
  .max(MAX_ADD_ON_VARIANTS * 5)
  .refine((lines) => new Set(lines.map((l) => l.variantId)).size === lines.length, 'Each add-on once')
  .optional();

/** Gate staff hand an add-on over: one booking's add-on line, marked given once. */
export const GateAddOnsInput = z.object({ ...EventIdInput.shape, bookingId: idField });
export const MarkAddOnGivenInput = z.object({
  ...EventIdInput.shape,
  bookingId: idField,
  lineId: idField,
  /** The gate's name, as the scan gives it (for the history). */
  gate: z.string().trim().min(1, 'Name the gate, e.g. North gate').max(60),
});
