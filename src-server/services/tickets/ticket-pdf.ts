import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { formatBookingDate, formatTime } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import type { OwnBooking } from '../bookings/owner-bookings.ts';

/**
 * A printable ticket: one A5 page per booking with the event, the date and time in India time, the
 * venue, the holder, the tickets, the amount paid, the Booking ID and the signed QR code.
 *
 * Laying out text is synchronous and grows with its length (a 50,000-character name took ~2 s), so
 * every stored text is clamped before it is drawn, and the server runs this in a worker thread
 * (`ticket-pdf-worker.ts`), never on the event loop that answers requests.
 */
export async function renderTicketsPdf(tickets: OwnBooking[]): Promise<Buffer> {
  // A booking whose types give each attendee a ticket of their own (ADR 0046) prints a page per attendee,
  // with their name, and the booking's own page only when its QR still admits someone (its other types).
  const pages = tickets.flatMap((ticket): Page[] => [
    ...(ticket.bookingQrAdmits ? [{ ticket, qrToken: ticket.qrToken, attendee: null }] : []),
    ...ticket.attendeeTickets.map((a) => ({ ticket, qrToken: a.qrToken, attendee: a.label })),
  ]);
  const qrImages = await Promise.all(
    pages.map((p) =>
      QRCode.toBuffer(p.qrToken, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 8 }),
    ),
  );
  const doc = new PDFDocument({
    size: 'A5',
    margin: 36,
    autoFirstPage: false,
    info: { Title: 'Jalsa ticket', Author: 'Jalsa', Creator: 'Jalsa' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  pages.forEach((page, i) => {
    drawTicket(doc, page.ticket, qrImages[i]!, page.attendee);
  });
  doc.end();
  return finished;
}

/**
 * The longest text drawn per field. The holder's name matches the forms' limit (100); rows written
 * before that limit existed may hold more, and are cut here.
 */
const TEXT_MAX = { eventName: 150, venue: 200, name: 100, tickets: 300, bookingId: 60 } as const;

const BRAND = '#e11d48';
const MUTED = '#4b5563';

interface Page {
  ticket: OwnBooking;
  qrToken: string;
  /** "Ticket 2 of 3 · Priya" on an attendee's own page; null on the booking's. */
  attendee: string | null;
}

function drawTicket(doc: PDFKit.PDFDocument, ticket: OwnBooking, qrPng: Buffer, attendee: string | null) {
  doc.addPage();
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.fillColor(BRAND).font('Helvetica-Bold').fontSize(20).text('Jalsa', left, 36);
  doc.fillColor(MUTED).font('Helvetica').fontSize(10).text('E-ticket', { width, align: 'left' });
  doc.moveDown(1);

  doc
    .fillColor('#111827')
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(pdfText(clamp(ticket.eventName || 'Event', TEXT_MAX.eventName)), { width });
  doc.moveDown(0.5);

  const rows: [string, string][] = [
    ['Date', formatBookingDate(ticket.ticketSlot || ticket.ticketDate)],
    ['Time', `${formatTime(ticket.ticketSlot)} - ${formatTime(ticket.ticketSlotEnd)} (India time)`],
    ['Venue', clamp(ticket.eventLocation || 'Location', TEXT_MAX.venue)],
    ['Name', clamp(ticket.userName || '-', TEXT_MAX.name)],
    ['Tickets', clamp(ticketLines(ticket), TEXT_MAX.tickets)],
    ['Amount paid', pdfText(formatPaiseExact(ticket.totalAmountPaise))],
    ['Booking ID', clamp(ticket.id, TEXT_MAX.bookingId)],
  ];
  if (attendee) rows.splice(3, 0, ['Attendee', clamp(attendee, TEXT_MAX.name)]);
  for (const [label, value] of rows) {
    doc.fillColor(MUTED).font('Helvetica').fontSize(9).text(label.toUpperCase(), { width });
    doc.fillColor('#111827').font('Helvetica-Bold').fontSize(12).text(pdfText(value), { width });
    doc.moveDown(0.4);
  }

  const qrSize = 150;
  const qrTop = Math.min(doc.y + 6, doc.page.height - doc.page.margins.bottom - qrSize - 30);
  doc.image(qrPng, left + (width - qrSize) / 2, qrTop, { width: qrSize, height: qrSize });
  doc
    .fillColor(MUTED)
    .font('Helvetica')
    .fontSize(8)
    .text('Show this QR code at the entrance with a government ID.', left, qrTop + qrSize + 6, {
      width,
      align: 'center',
    });
}

function ticketLines(ticket: OwnBooking): string {
  if (ticket.ticketTypes.length > 1)
    return ticket.ticketTypes.map((l) => `${l.name} x ${l.quantity}`).join(', ');
  return `${ticket.ticketTypeName || 'Ticket'} x ${ticket.ticketCount || 1}`;
}

/** At most `max` characters, the last three '...' when something was cut. */
function clamp(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

// The PDF's built-in fonts cover Latin-1 only: the rupee sign becomes 'Rs.' rather than a blank box.
function pdfText(text: string): string {
  return text.replaceAll('₹', 'Rs. ');
}
