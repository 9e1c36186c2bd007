import type { IrpInvoicePayload } from './e-invoice-payload.ts';

/**
 * The Invoice Registration Portal as the app sees it (e-invoicing, issue 36): send an invoice, get back
 * its IRN, acknowledgement and signed QR code. Chosen in compose-deps.ts (the HTTP adapter in
 * integrations/irp/ when EINVOICE_IRP_URL is set); services never import integrations/.
 */
export interface EInvoiceProvider {
  name: string;
  /** Registers one invoice; throws EInvoiceError when the IRP refuses it or cannot be reached. */
  register: (payload: IrpInvoicePayload, sellerGstin: string) => Promise<EInvoiceRegistered>;
}

export interface EInvoiceRegistered {
  irn: string;
  ackNumber: string;
  /** As the IRP gives it ('2026-11-21 12:00:00', IST). */
  ackDate: string;
  /** The IRP's signed QR code payload (a JWT): what the printed QR code encodes. */
  signedQrCode: string;
}

/** An IRP refusal (its error codes and messages, shown to the organiser) or a failure to reach it. */
export class EInvoiceError extends Error {
  override name = 'EInvoiceError';
}
