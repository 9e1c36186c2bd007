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
 * { Status: 0, ErrorDetails: [{ ErrorCode, ErrorMessage }] }. A document registered before (2150,
 * duplicate IRN) is looked up by its IRN ('Get e-invoice by IRN'), so a lost answer is not a failure.
 */
export function createIrpProvider(options: {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
}): EInvoiceProvider {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/eicore/v1.03/Invoice`;
  const call = async (
    url: string,
    sellerGstin: string,
    body?: unknown,
  ): Promise<{ status: number; answer: IrpAnswer | null }> => {
    let res: Response;
    try {
      res = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          accept: 'application/json',
          authorization: `Bearer ${options.token}`,
          gstin: sellerGstin,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
      });
    } catch (err) {
      throw new EInvoiceError(
        `The IRP could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return { status: res.status, answer: (await res.json().catch(() => null)) as IrpAnswer | null };
  };
  return {
    name: 'irp',
    async register(payload: IrpInvoicePayload, sellerGstin: string): Promise<EInvoiceRegistered> {
      const { status, answer } = await call(base, sellerGstin, payload);
      const registered = registeredOf(answer);
      if (registered) return registered;
      // Registered before, but the answer was lost (a timeout, or a crash before it was stored): the IRP
      // refuses the same document again with 2150 and its IRN, and 'Get e-invoice by IRN' gives the rest.
      const duplicate = answer?.InfoDtls?.find((i) => i.InfoCd === 'DUPIRN')?.Desc?.Irn;
      if (duplicate && answer?.ErrorDetails?.some((e) => e.ErrorCode === '2150')) {
        const earlier = await call(`${base}/irn/${encodeURIComponent(duplicate)}`, sellerGstin);
        const found = registeredOf(earlier.answer);
        if (found) return found;
      }
      throw new EInvoiceError(errorMessage(status, answer));
    },
  };
}

function registeredOf(answer: IrpAnswer | null): EInvoiceRegistered | null {
  const data = answer?.Status === 1 ? answer.Data : undefined;
  if (!data?.Irn || !data.SignedQRCode) return null;
  return {
    irn: data.Irn,
    ackNumber: String(data.AckNo),
    ackDate: String(data.AckDt),
    signedQrCode: data.SignedQRCode,
  };
}

function errorMessage(status: number, answer: IrpAnswer | null): string {
  const errors = (answer?.ErrorDetails ?? [])
    .map((e) => `${e.ErrorCode ? `${e.ErrorCode}: ` : ''}${e.ErrorMessage ?? ''}`.trim())
    .filter(Boolean);
  return errors.length > 0 ? `IRP: ${errors.join('; ')}` : `The IRP answered ${status} without an IRN`;
}

interface IrpAnswer {
  Status?: number;
  Data?: { AckNo?: number | string; AckDt?: string; Irn?: string; SignedQRCode?: string };
  ErrorDetails?: { ErrorCode?: string; ErrorMessage?: string }[];
  InfoDtls?: { InfoCd?: string; Desc?: { Irn?: string } }[];
}
