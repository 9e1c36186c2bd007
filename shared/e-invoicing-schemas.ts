import { z } from 'zod';

/** E-invoicing (issue 36): the organiser's setting and the retry of one invoice's registration. */
export const E_INVOICING_MESSAGES = {
  needsGstin: 'E-invoicing is for GST-registered suppliers: add your GSTIN in Organiser profile first.',
  notFound: 'No e-invoice registration to retry for that invoice or credit note',
  alreadyRegistered: 'This document already has its IRN',
} as const;

export const eInvoicingSettingSchema = z.object({
  /** "E-invoicing applies to me": aggregate turnover above the e-invoicing threshold. */
  applies: z.boolean({ message: 'Say whether e-invoicing applies to you' }),
});

/** The invoice, or the credit note (registered as a CRN), whose registration to try again. */
export const retryEInvoiceSchema = z.union([
  z.object({ invoiceId: z.string().min(1).max(100) }),
  z.object({ creditNoteId: z.string().min(1).max(100) }),
]);
