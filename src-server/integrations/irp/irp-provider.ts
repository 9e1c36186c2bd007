import type { IrpInvoicePayload } from '../../services/invoices/e-invoice-payload.ts';
import {
  EInvoiceError,
  type EInvoiceProvider,
  type EInvoiceRegistered,
} from '../../services/invoices/e-invoice-provider.ts';

/**
 * The Invoice Registration Portal over HTTP, as GST Suvidha Providers expose it: the NIC e-invoice API's
 * 'Generate IRN' (POST {base}/eicore/v1.03/Invoice) with the schema 1.1 JSON in plain text (the GSP does
 * the NIC session, encryption and signing), the seller's GSTIN in a header, an access token as bearer.
 * The answer is NIC's: { Status: 1, Data: { AckNo, AckDt, Irn, SignedQRCode, … } } or
 * { Status: 0, ErrorDetails: [{ ErrorCode, ErrorMessage }] }.
 */
export function createIrpProvider(options: {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
}): EInvoiceProvider {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/eicore/v1.03/Invoice`;
  return {
    name: 'irp',
    async register(payload: IrpInvoicePayload, sellerGstin: string): Promise<EInvoiceRegistered> {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            authorization: `Bearer ${options.token}`,
            gstin: sellerGstin,
          },
          body: JSON.stringify(payload),
          signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
        });
      } catch (err) {
        throw new EInvoiceError(
          `The IRP could not be reached: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      const body = (await res.json().catch(() => null)) as IrpAnswer | null;
      if (body?.Status === 1 && body.Data?.Irn && body.Data.SignedQRCode) {
        return {
          irn: body.Data.Irn,
          ackNumber: String(body.Data.AckNo),
          ackDate: String(body.Data.AckDt),
          signedQrCode: body.Data.SignedQRCode,
        };
      }
      const errors = (body?.ErrorDetails ?? [])
        .map((e) => `${e.ErrorCode ? `${e.ErrorCode}: ` : ''}${e.ErrorMessage ?? ''}`.trim())
        .filter(Boolean);
      throw new EInvoiceError(
        errors.length > 0 ? `IRP: ${errors.join('; ')}` : `The IRP answered ${res.status} without an IRN`,
      );
    },
  };
}

interface IrpAnswer {
  Status?: number;
  Data?: { AckNo?: number | string; AckDt?: string; Irn?: string; SignedQRCode?: string };
  ErrorDetails?: { ErrorCode?: string; ErrorMessage?: string }[];
}
