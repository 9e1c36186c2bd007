import { parentPort } from 'node:worker_threads';
import type { OwnBooking } from '../bookings/owner-bookings.ts';
import { renderTicketsPdf } from './ticket-pdf.ts';

/** A request to the PDF thread, and its answer (started by `ticket-pdf-worker.ts`). */
export interface PdfRequest {
  id: number;
  tickets: OwnBooking[];
}
export type PdfAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

// Requests arrive in order and are drawn one after another; the thread has nothing else to do.
parentPort?.on('message', async ({ id, tickets }: PdfRequest) => {
  let answer: PdfAnswer;
  try {
    answer = { id, pdf: await renderTicketsPdf(tickets) };
  } catch (err) {
    answer = { id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  parentPort?.postMessage(answer);
});
