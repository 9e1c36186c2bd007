import { z } from 'zod';
import { sumOfLinesHead } from './gst.ts';
import { pinOf } from './indian-pin.ts';
import type { CheckoutLine, CheckoutTaxes } from './pricing.ts';

/**
 * When a GST invoice must carry the recipient's address (CGST Rule 46(e) and (f), issue 36): a registered
 * recipient (a GSTIN given), or an unregistered one "where the value of the taxable supply is fifty
 * thousand rupees or more": the taxable value of the organiser's admission invoice (tickets and add-ons,
 * before GST), not what the buyer pays with GST. The platform's fee invoice is another supplier's and
 * far below the threshold; it is not counted. The checkout asks for the address exactly then (the server
 * refuses Proceed, and the waiting list's join, without it; the client shows the field by this same
 * rule), and credit notes print what their invoice carries (Rule 53).
 */
export const RECIPIENT_ADDRESS_THRESHOLD_PAISE = 5_000_000;

export const RECIPIENT_ADDRESS_MESSAGES = {
  required:
    'Please enter your billing address: GST invoices to a registered business, or of ₹50,000 or more, must show it',
  long: 'Address must be at most 300 characters',
  businessPin:
    "Please add the address's 6-digit PIN code (e.g. 560038): a GST invoice to a registered business must show it",
} as const;

/** What the rule weighs: any GSTIN typed, and the taxable value of the supply (`invoiceTaxableValuePaise`). */
export interface RecipientOrder {
  /** Any GSTIN given (as typed: the field shows as soon as one is). */
  buyerGstin?: string | null;
  /** The admission invoice's taxable value: before any GST, after any discount. */
  taxableValuePaise: number;
}

export function recipientAddressRequired(order: RecipientOrder): boolean {
  return !!order.buyerGstin?.trim() || order.taxableValuePaise >= RECIPIENT_ADDRESS_THRESHOLD_PAISE;
}

/** An add-on line as the organiser's invoice taxes it: its own price, quantity and rate. */
export interface TaxedAddOnLine {
  pricePaise: number;
  quantity: number;
  taxRatePercent: number;
}

/**
 * The taxable value the organiser's admission invoice will show for this selection, with the invoice's
 * own arithmetic (shared/gst.ts computeTaxLine, line by line): each ticket line at the event's rate,
 * inclusive or "+ GST", with entry 81's exemption and any discount; each add-on at its own rate. An
 * organiser not registered charges no GST: the taxable value is what is charged.
 */
export function invoiceTaxableValuePaise(
  tickets: readonly CheckoutLine[],
  addOns: readonly TaxedAddOnLine[],
  taxes: Pick<
    CheckoutTaxes,
    | 'admissionTaxRatePercent'
    | 'admissionInvoiceRatePercent'
    | 'admissionExemptionApplies'
    | 'admissionIntraState'
  >,
): number {
  const registered = taxes.admissionInvoiceRatePercent !== null;
  const rule = {
    // "+ GST" prices (admissionTaxRatePercent) exist only for a registered organiser, at the invoice's rate.
    taxRatePercent: taxes.admissionInvoiceRatePercent ?? 0,
    exemptionApplies: taxes.admissionExemptionApplies,
    intraState: taxes.admissionIntraState,
    taxInclusive: taxes.admissionTaxRatePercent === null,
  };
  const addOnLines = addOns.map((line) => ({
    ...line,
    personsPerTicket: 1,
    taxRatePercent: registered ? line.taxRatePercent : 0,
    exemptionApplies: false,
  }));
  return (
    sumOfLinesHead(tickets, rule, 'taxableValuePaise') + sumOfLinesHead(addOnLines, rule, 'taxableValuePaise')
  );
}

/** The address as typed at checkout: optional in the form's schema, required by `recipientAddressSchema`. */
export const optionalRecipientAddressSchema = z
  .string()
  .trim()
  .max(300, RECIPIENT_ADDRESS_MESSAGES.long)
  .optional();

/** The address when the rule requires it. */
export const recipientAddressSchema = z
  .string({ message: RECIPIENT_ADDRESS_MESSAGES.required })
  .trim()
  .min(1, RECIPIENT_ADDRESS_MESSAGES.required)
  .max(300, RECIPIENT_ADDRESS_MESSAGES.long);

/**
 * A registered recipient's address: with its PIN code. The IRP's e-invoice (schema 1.1) requires the
 * buyer's PIN as it does the seller's (ADR 0034), and an invoice cannot be changed once issued, so it is
 * asked for at the checkout rather than found missing by the IRP after the sale (shared/indian-pin.ts
 * decides what a PIN is, as for the seller's).
 */
export const businessAddressSchema = recipientAddressSchema.refine((address) => pinOf(address) !== null, {
  message: RECIPIENT_ADDRESS_MESSAGES.businessPin,
});

/** The schema the rule asks of this order's address: a business's (with a PIN) when a GSTIN is given. */
export function recipientAddressSchemaFor(order: Pick<RecipientOrder, 'buyerGstin'>) {
  return order.buyerGstin?.trim() ? businessAddressSchema : recipientAddressSchema;
}

/**
 * The address to keep for an order: parsed by `recipientAddressSchemaFor` when required (its message
 * when missing, or a business's without its PIN), dropped when not (the checkout asked for none).
 */
export function recipientAddressOf(
  order: RecipientOrder,
  typed: string | undefined,
): { ok: true; address: string | null } | { ok: false; message: string } {
  if (!recipientAddressRequired(order)) return { ok: true, address: null };
  const parsed = recipientAddressSchemaFor(order).safeParse(typed ?? '');
  return parsed.success
    ? { ok: true, address: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? RECIPIENT_ADDRESS_MESSAGES.required };
}
