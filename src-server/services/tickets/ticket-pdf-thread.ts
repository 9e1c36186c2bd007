import { parentPort } from 'node:worker_threads';
import type { OwnBooking } from '../bookings/owner-bookings.ts';
import {
  type PrintableCreditNote,
  type PrintableInvoice,
  renderInvoicePdf,
} from '../invoices/invoice-pdf.ts';
import { renderTicketsPdf } from './ticket-pdf.ts';

/** A request to the PDF thread, and its answer (started by `ticket-pdf-worker.ts`). */
export type PdfRequest =
  | { id: number; tickets: OwnBooking[] }
  | { id: number; invoice: PrintableInvoice; creditNote?: PrintableCreditNote };
export type PdfAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

// Requests arrive in order and are drawn one after another; the thread has nothing else to do.
parentPort?.on('message', async (request: PdfRequest) => {
  const { id } = request;
  let answer: PdfAnswer;
  try {
    const pdf =
      'invoice' in request
        ? await renderInvoicePdf(request.invoice, request.creditNote)
        : await renderTicketsPdf(request.tickets);
    answer = { id, pdf };
  } catch (err) {
    answer = { id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  parentPort?.postMessage(answer);
});
