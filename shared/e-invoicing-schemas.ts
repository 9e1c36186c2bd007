import { z } from 'zod';

/** E-invoicing (issue 36): the organiser's setting and the retry of one invoice's registration. */
export const E_INVOICING_MESSAGES = {
  needsGstin: 'E-invoicing is for GST-registered suppliers: add your GSTIN in Organiser profile first.',
  /** Turning it on: the IRP refuses every e-invoice without the seller's PIN (schema 1.1). */
  needsPin:
    'E-invoicing needs the 6-digit PIN code in the address of your Organiser profile (e.g. "12 Hill Road, Mumbai 400050"): add it there and save first, as the IRP refuses every e-invoice without it.',
  /** Saving the profile's address without one while it is on (organiser-profile.ts). */
  addressNeedsPin:
    'Address must end with its 6-digit PIN code (e.g. 400050) while e-invoicing is on: the IRP refuses every e-invoice without it',
  notFound: 'No e-invoice registration to retry for that invoice or credit note',
  alreadyRegistered: 'This document already has its IRN',
} as const;

export const eInvoicingSettingSchema = z.object({
  /** "E-invoicing applies to me": aggregate turnover above the e-invoicing threshold. */
  applies: z.boolean({ message: 'Say whether e-invoicing applies to you' }),
  /**
   * Aggregate annual turnover of ₹10 crore or more: only then does the IRP's 30-day reporting window
   * apply (GSTN advisory, from 1 Apr 2025). Omitted: the answer stored before is kept (no for a new one).
   */
  aatoTenCroreOrMore: z
    .boolean({ message: 'Say whether your aggregate annual turnover is ₹10 crore or more' })
    .optional(),
});

export type EInvoicingSetting = z.output<typeof eInvoicingSettingSchema>;

/** The invoice, or the credit note (registered as a CRN), whose registration to try again. */
export const retryEInvoiceSchema = z.union([
  z.object({ invoiceId: z.string().min(1).max(100) }),
  z.object({ creditNoteId: z.string().min(1).max(100) }),
]);
