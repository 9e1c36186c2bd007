import { z } from 'zod';

/**
 * When a GST invoice must carry the recipient's address (CGST Rule 46(e), issue 36): a registered
 * recipient (a GSTIN given), or an unregistered one whose invoice is worth ₹50,000 or more. The checkout
 * asks for the address exactly then (the server refuses Proceed without it; the client shows the field
 * by this same rule), and credit notes print what their invoice carries (Rule 53).
 */
export const RECIPIENT_ADDRESS_THRESHOLD_PAISE = 5_000_000;

export const RECIPIENT_ADDRESS_MESSAGES = {
  required:
    'Please enter your billing address: GST invoices to a registered business, or of ₹50,000 or more, must show it',
  long: 'Address must be at most 300 characters',
} as const;

export function recipientAddressRequired(order: {
  /** Any GSTIN given (as typed: the field shows as soon as one is). */
  buyerGstin?: string | null;
  /** The admission invoice's value: ticket prices plus any GST added on top. */
  invoiceValuePaise: number;
}): boolean {
  return !!order.buyerGstin?.trim() || order.invoiceValuePaise >= RECIPIENT_ADDRESS_THRESHOLD_PAISE;
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
 * The address to keep for an order: parsed by `recipientAddressSchema` when required (its message when
 * missing), dropped when not (the checkout asked for none).
 */
export function recipientAddressOf(
  order: { buyerGstin?: string | null; invoiceValuePaise: number },
  typed: string | undefined,
): { ok: true; address: string | null } | { ok: false; message: string } {
  if (!recipientAddressRequired(order)) return { ok: true, address: null };
  const parsed = recipientAddressSchema.safeParse(typed ?? '');
  return parsed.success
    ? { ok: true, address: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? RECIPIENT_ADDRESS_MESSAGES.required };
}
