import { Worker } from 'node:worker_threads';
import type { OwnBooking } from '../bookings/owner-bookings.ts';
import type { PrintableCreditNote, PrintableInvoice } from '../invoices/invoice-pdf.ts';
import type { PdfAnswer, PdfRequest } from './ticket-pdf-thread.ts';

export interface TicketPdfRenderer {
  /** The tickets as one PDF, drawn on another thread; the event loop only sends and receives. */
  render: (tickets: OwnBooking[]) => Promise<Buffer>;
  /** One stored invoice as a PDF (issue 16), on the same thread; with `creditNote`, that credit note. */
  renderInvoice: (invoice: PrintableInvoice, creditNote?: PrintableCreditNote) => Promise<Buffer>;
  /** Stops the thread; later calls start a new one. */
  close: () => Promise<void>;
}

/**
 * One worker thread that draws ticket PDFs, started on first use, requests queued in order
 * (docs/decisions/0013-ticket-pdfs-off-the-event-loop.md). The thread does not keep the process alive.
 * If it crashes, the requests in flight fail and the next one starts a fresh thread.
 */
export function createTicketPdfWorker(): TicketPdfRenderer {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: (pdf: Buffer) => void; reject: (err: Error) => void }>();

  const failAll = (err: Error) => {
    for (const waiter of pending.values()) waiter.reject(err);
    pending.clear();
  };

  const start = () => {
    const thread = new Worker(BOOTSTRAP, { eval: true, workerData: { entry: THREAD_ENTRY, tsx: TSX_API } });
    thread.unref();
    thread.on('message', (answer: PdfAnswer) => {
      const waiter = pending.get(answer.id);
      if (!waiter) return;
      pending.delete(answer.id);
      if ('pdf' in answer)
        waiter.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.length));
      else waiter.reject(new Error(`ticket PDF failed: ${answer.error}`));
    });
    thread.on('error', (err) => {
      if (worker === thread) worker = null;
      failAll(err);
    });
    thread.on('exit', (code) => {
      if (worker === thread) worker = null;
      failAll(new Error(`ticket PDF thread exited with code ${code}`));
    });
    return thread;
  };

  const send = (request: Omit<PdfRequest, 'id'>) =>
    new Promise<Buffer>((resolve, reject) => {
      worker ??= start();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...request } as PdfRequest);
    });
  return {
    render: (tickets) => send({ tickets }),
    renderInvoice: (invoice, creditNote) => send(creditNote ? { invoice, creditNote } : { invoice }),
    close: async () => {
      const thread = worker;
      worker = null;
      if (thread) await thread.terminate();
    },
  };
}

const THREAD_ENTRY = new URL('./ticket-pdf-thread.ts', import.meta.url).href;
/** tsx's API, resolved from here: the thread loads the TypeScript entry through it. */
const TSX_API = import.meta.resolve('tsx/esm/api');

/**
 * The thread's first code: plain JavaScript, because a worker does not inherit the TypeScript loader
 * in every way the server is started (tsx's CLI, `node --import tsx`, vitest).
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((api) => api.tsImport(workerData.entry, workerData.entry));
`;
