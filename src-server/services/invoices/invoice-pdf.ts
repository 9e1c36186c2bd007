import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { amountInWords } from '../../../shared/amount-in-words.ts';
import { formatLongDate } from '../../../shared/dates.ts';
import { isTaxedKind } from '../../../shared/gst.ts';
import { GST_STATE_CODES, stateOfGstin } from '../../../shared/gst-states.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { isIndianState } from '../../../shared/states.ts';
import type { creditNotes, invoices } from '../../db/schema/invoices.ts';
import { creditNoteReasonInWords } from './credit-note-reasons.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type CreditNoteRow = typeof creditNotes.$inferSelect;

/** An e-invoice's registration with the IRP (e-invoices.ts), printed on the invoice once it has one. */
export interface EInvoiceStamp {
  irn: string;
  ackNumber: string;
  ackDate: string;
  signedQrCode: string;
}

/** The stored invoice and, once the IRP registered it, its e-invoice particulars. */
export type PrintableInvoice = InvoiceRow & { eInvoice?: EInvoiceStamp | null };
/** A credit note and, once the IRP registered it as a CRN, its own e-invoice particulars. */
export type PrintableCreditNote = CreditNoteRow & { eInvoice?: EInvoiceStamp | null };

/**
 * The invoice as an A4 PDF, drawn only from the stored row (never recomputed). Runs in the PDF worker
 * thread with the tickets (tickets/ticket-pdf-thread.ts). Built-in fonts are Latin-1: see `latin1`.
 * With `creditNote`, that credit note instead: the invoice's parties and items for reference, and the
 * amounts credited (its own stored row).
 */
export async function renderInvoicePdf(
  invoice: PrintableInvoice,
  creditNote?: PrintableCreditNote,
): Promise<Buffer> {
  const invoiceTitle = documentTitle(invoice);
  const registered = invoice.supplierGstin !== null;
  const title = creditNote ? 'Credit note' : invoiceTitle;
  const number = creditNote?.number ?? invoice.number;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    info: { Title: `${title} ${number}`, Author: 'Jalsa', Creator: 'Jalsa' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const text = (value: string, options: PDFKit.Mixins.TextOptions = {}) =>
    doc.text(latin1(value), { width, ...options });

  doc.font('Helvetica-Bold').fontSize(18);
  text(title);
  doc.font('Helvetica').fontSize(10);
  if (creditNote) {
    text(`Credit note number: ${creditNote.number}`);
    text(`Date: ${formatLongDate(creditNote.issuedAt)}`);
    text(`Against ${invoiceTitle.toLowerCase()} ${invoice.number} of ${formatLongDate(invoice.issuedAt)}`);
    text(`Reason: ${clamp(creditNoteReasonInWords(creditNote.reason), 200)}`);
  } else {
    text(`${invoice.documentType === 'bill_of_supply' ? 'Bill' : 'Invoice'} number: ${invoice.number}`);
    text(`Date: ${formatLongDate(invoice.issuedAt)}`);
  }
  text(`Booking ID: ${invoice.bookingId}`);
  doc.moveDown();

  doc.font('Helvetica-Bold');
  text('Supplier');
  doc.font('Helvetica');
  text(clamp(invoice.supplierName, 120));
  text(clamp(invoice.supplierAddress, 300));
  text(`State: ${stateWithCode(invoice.supplierState)}`);
  text(`GSTIN: ${invoice.supplierGstin ?? 'Not registered'}`);
  doc.moveDown();

  doc.font('Helvetica-Bold');
  text('Recipient');
  doc.font('Helvetica');
  text(clamp(invoice.buyerLegalName ?? invoice.buyerName, 120));
  if (invoice.buyerAddress) text(clamp(invoice.buyerAddress, 300));
  if (invoice.buyerGstin) text(`GSTIN: ${invoice.buyerGstin}`);
  // A registered recipient's state is their GSTIN's: what was typed at checkout cannot contradict it.
  text(
    `State: ${stateWithCode((invoice.buyerGstin && stateOfGstin(invoice.buyerGstin)) || invoice.buyerState)}`,
  );
  text(`Place of supply: ${stateWithCode(invoice.placeOfSupply)}`);
  doc.moveDown();

  doc.font('Helvetica-Bold');
  text(creditNote ? `Items of invoice ${invoice.number}` : 'Items');
  doc.font('Helvetica');
  // The half besides CGST: UTGST in a union territory without a legislature, as stored (issue 36).
  const stateHead = invoice.stateTaxHead ?? 'SGST';
  for (const line of invoice.lines) {
    text(
      `${clamp(line.description, 200)} (${line.sac.startsWith('99') ? 'SAC' : 'HSN'} ${line.sac}): ${line.quantity} x ${rupees(line.unitPricePaise)}` +
        (line.personsPerTicket > 1 ? `, ${line.personsPerTicket} persons per ticket` : ''),
    );
    // A discount code's reduction, per line (issue 40): the taxable value below is after it.
    if (line.discountPerTicketPaise) {
      text(
        `    Less discount${line.discountCode ? ` (code ${clamp(line.discountCode, 40)})` : ''}: ` +
          `${line.quantity} x ${rupees(line.discountPerTicketPaise)} = ${rupees(line.quantity * line.discountPerTicketPaise)}`,
      );
    }
    const tax = !registered
      ? 'GST not charged (supplier not registered under GST)'
      : line.kind === 'exempt'
        ? 'Exempt'
        : line.kind === 'nil'
          ? 'Nil rated (GST 0%)'
          : line.kind === 'intra'
            ? `CGST ${line.taxRatePercent / 2}% ${rupees(line.cgstPaise)}; ${stateHead} ${line.taxRatePercent / 2}% ${rupees(line.sgstPaise)}`
            : `IGST ${line.taxRatePercent}% ${rupees(line.igstPaise)}`;
    text(`    Taxable value ${rupees(line.taxableValuePaise)}; ${tax}; amount ${rupees(line.totalPaise)}`);
  }
  doc.moveDown();

  // A credit note's totals are what it credits (all of the invoice, or the refunded share).
  const totals = creditNote ?? invoice;
  doc.font('Helvetica-Bold');
  text(creditNote ? 'Amounts credited' : 'Totals');
  doc.font('Helvetica');
  text(`Taxable value: ${rupees(totals.taxableValuePaise)}`);
  if (totals.cgstPaise > 0 || totals.sgstPaise > 0) {
    text(`CGST: ${rupees(totals.cgstPaise)}`);
    text(`${stateHead}: ${rupees(totals.sgstPaise)}`);
  }
  if (totals.igstPaise > 0) text(`IGST: ${rupees(totals.igstPaise)}`);
  doc.font('Helvetica-Bold');
  text(
    `${creditNote ? 'Credit note' : invoice.documentType === 'bill_of_supply' ? 'Bill' : 'Invoice'} total: ${rupees(totals.totalPaise)}`,
  );
  doc.font('Helvetica');
  text(`Amount in words: ${amountInWords(totals.totalPaise)}`);
  if (invoice.documentType === 'tax_invoice') {
    text(
      invoice.taxInclusive
        ? 'Prices include GST where GST applies.'
        : 'GST is charged in addition to the price.',
    );
  }
  // Rule 46(p) and Rule 53: the supplier, not the recipient, pays this tax.
  text('Whether tax is payable on reverse charge: No');
  for (const note of invoice.notes) {
    doc.moveDown(0.5);
    text(note);
  }
  doc.moveDown();
  // Rule 46(q): the supplier's signature. Issued electronically without a digital signature certificate,
  // so the document names its signatory and says it is computer-generated rather than claiming a
  // digital signature it does not carry.
  text(`For ${clamp(invoice.supplierName, 120)}`);
  text('Authorised signatory');
  text('This is a computer-generated document issued electronically; it needs no physical signature.');
  // A credit note prints its own IRN (document type CRN), never its invoice's.
  const stamp = creditNote ? creditNote.eInvoice : invoice.eInvoice;
  if (stamp) await drawEInvoice(doc, stamp, text);
  doc.end();
  return finished;
}

/**
 * The e-invoice's particulars (Rule 48(4)): the IRN and acknowledgement as text, and the IRP's signed QR
 * code as an image a recipient's app can verify.
 */
async function drawEInvoice(
  doc: PDFKit.PDFDocument,
  stamp: EInvoiceStamp,
  text: (value: string, options?: PDFKit.Mixins.TextOptions) => PDFKit.PDFDocument,
) {
  const qr = await QRCode.toBuffer(stamp.signedQrCode, {
    type: 'png',
    errorCorrectionLevel: 'L',
    margin: 1,
    scale: 3,
  });
  doc.moveDown();
  doc.font('Helvetica-Bold');
  text('E-invoice');
  doc.font('Helvetica');
  text(`IRN: ${stamp.irn}`);
  text(`Ack No: ${stamp.ackNumber}`);
  text(`Ack Date: ${stamp.ackDate}`);
  const size = 130;
  if (doc.y + size > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.image(qr, doc.page.margins.left, doc.y + 4, { width: size, height: size });
  doc.y += size + 8;
}

/**
 * Rule 49: a bill of supply for a wholly exempt or unregistered supply; Rule 46A: a registered supplier's
 * invoice that mixes taxable and exempt admission for an unregistered buyer is an invoice-cum-bill of supply.
 */
function documentTitle(invoice: InvoiceRow): string {
  if (invoice.documentType === 'bill_of_supply') return 'Bill of supply';
  const mixed =
    invoice.lines.some((l) => !isTaxedKind(l.kind)) && invoice.lines.some((l) => isTaxedKind(l.kind));
  return mixed && !invoice.buyerGstin ? 'Invoice-cum-bill of supply' : 'Tax invoice';
}

function rupees(paise: number): string {
  return formatPaiseExact(paise);
}

function stateWithCode(state: string): string {
  return isIndianState(state) ? `${state} (${GST_STATE_CODES[state]})` : state;
}

function clamp(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 3)}...`;
}

/** The built-in fonts are Latin-1: the rupee sign becomes 'Rs.', curly quotes and dashes plain ones. */
function latin1(value: string): string {
  const plain = value
    .replaceAll('₹', 'Rs. ')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-');
  return Array.from(plain, (ch) => ((ch.codePointAt(0) ?? 0) > 0xff ? '?' : ch)).join('');
}
