import { and, asc, eq, inArray } from 'drizzle-orm';
import type { SalesChannel } from '../../../shared/box-office-schemas.ts';
import type { OrdersFilter } from '../../../shared/sales-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { rows, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { InvoiceLine } from '../../db/schema/invoices.ts';
import { addOnLabel, addOnsOfBookingsSteps, type BookedAddOn } from '../add-ons/booking-add-ons.ts';
import { channelsOfSteps } from '../box-office/sales-channels.ts';
import { answerColumnsOfSteps } from '../questions/answer-columns.ts';
import { answersOfBookingsSteps } from '../questions/booking-answers.ts';
import { type CsvValue, csvIndiaTime, csvRow, csvRupees } from './csv-cells.ts';
import { csvStream, keysetPagesAsync } from './csv-stream.ts';
import { cursorOf, type EventOrder, orderPageSteps } from './list-event-orders.ts';

/** Orders read per query: enough to keep the database busy, few enough that memory stays flat. */
export const CSV_PAGE_SIZE = 500;

/**
 * The columns, documented for organisers and their accountants in ADR 0020 ("Orders CSV columns").
 * One row per ticket type of an order; the order's own figures are on its first row only.
 */
export const ORDERS_CSV_HEADER = [
  'Booking ID',
  'Booked at',
  'Status',
  'Buyer name',
  'E-mail',
  'Mobile',
  'State',
  'City',
  'Slot start',
  'Slot end',
  'Ticket type',
  'Quantity',
  'Unit price (INR)',
  'Tickets',
  'Persons',
  'Checked in',
  'Tickets (INR)',
  'Convenience fee (INR)',
  'GST on fee (INR)',
  'Total paid (INR)',
  'Refunded (INR)',
  'Payment ID',
  'Invoice number',
  'Credit note number',
  'Buyer GSTIN',
  'Buyer legal name',
  'GST rate (%)',
  'Taxable value (INR)',
  'CGST (INR)',
  'SGST (INR)',
  'IGST (INR)',
  'UTGST (INR)',
  // Issue 40, after the older columns so a spreadsheet built on them keeps working.
  'Discount code',
  'Discount per ticket (INR)',
  'Discount (INR)',
  // Add-ons (ADR 0041): apart from the tickets, GST included, on the order's first row.
  'Add-ons',
  'Add-ons (INR)',
  // Issue 40 (ADR 0042): online, door or comp.
  'Channel',
] as const;

/**
 * The orders table as CSV, for a spreadsheet and the organiser's accountant (csv-stream.ts: a
 * byte-order mark, a header row, one page of orders per pull, so an event with 100,000 orders never
 * sits in memory), dates in ISO 8601 India time with their offset, rupees with two decimals.
 *
 * One row per ticket type of an order, so each ticket type's taxable value and GST split (copied from
 * the order's admission invoice, never recomputed) can be tied to the invoice and summed by type. The
 * order's figures (tickets, persons, amounts paid and refunded) are written on its first row only, so a
 * column's sum is still the event's total; what identifies the order (booking, buyer, payment, invoice)
 * is on every row, so a filtered sheet keeps it.
 */
export async function streamOrdersCsv(
  db: DbOrTx,
  eventId: string,
  filter: OrdersFilter,
  pageSize = CSV_PAGE_SIZE,
): Promise<ReadableStream<Uint8Array>> {
  // Each read awaited on either engine (ADR 0045): the question columns first (the header names them),
  // then each page as its own short read.
  const questions = await runStatements(db, (d) => answerColumnsOfSteps(d, eventId));
  return csvStream([...ORDERS_CSV_HEADER, ...questions.header], pages());

  async function* pages() {
    const read = (after: EventOrder | undefined) =>
      runStatements(db, (d) =>
        orderPageSteps(d, eventId, filter, { limit: pageSize, after: after && cursorOf(after) }),
      );
    for await (const orders of keysetPagesAsync(read, pageSize)) {
      const ids = orders.map((o) => o.id);
      const { accounts, answers } = await runStatements(db, function* (d) {
        return { accounts: yield* accountsOfSteps(d, ids), answers: yield* answersOfBookingsSteps(d, ids) };
      });
      yield orders
        .map((order) =>
          orderRows(order, accounts.get(order.id), (typeId) =>
            questions.cells(answers.get(order.id), typeId),
          ),
        )
        .join('');
    }
  }
}

/** What an accountant ties an order with: its payment and the admission invoice it stands on. */
interface OrderAccounts {
  paymentId: string;
  channel: SalesChannel;
  addOns?: BookedAddOn[];
  invoice: {
    number: string;
    creditNoteNumber: string | null;
    buyerGstin: string | null;
    buyerLegalName: string | null;
    /** 'UTGST' when the state-level half is UTGST (its amounts in the sgst fields); null: SGST. */
    stateTaxHead: 'UTGST' | null;
    lines: InvoiceLine[];
  } | null;
}

/**
 * The payment ids and admission invoices of one page of orders (two reads by booking id). A booking's
 * invoice is its latest admission invoice: the one re-issued with the buyer's GSTIN replaces the first
 * (ADR 0024), and a credit note, when there is one, cancels it (the earlier pair is in the monthly
 * invoices CSV). Platform fee invoices are the platform's, not the organiser's, and are left out.
 */
function* accountsOfSteps(db: DbOrTx, bookingIds: string[]): Steps<Map<string, OrderAccounts>> {
  const out = new Map<string, OrderAccounts>();
  if (bookingIds.length === 0) return out;
  const { bookings, creditNotes, invoices } = tablesOf(db);
  const payments = yield* rows(
    db
      .select({ id: bookings.id, paymentId: bookings.paymentId })
      .from(bookings)
      .where(inArray(bookings.id, bookingIds)),
  );
  const addOns = yield* addOnsOfBookingsSteps(db, bookingIds);
  for (const { id, paymentId } of payments)
    out.set(id, { paymentId, channel: 'online', addOns: addOns.get(id), invoice: null });
  for (const [id, channel] of yield* channelsOfSteps(db, bookingIds)) out.get(id)!.channel = channel;
  const issued = yield* rows(
    db
      .select({
        bookingId: invoices.bookingId,
        number: invoices.number,
        creditNoteNumber: creditNotes.number,
        buyerGstin: invoices.buyerGstin,
        buyerLegalName: invoices.buyerLegalName,
        stateTaxHead: invoices.stateTaxHead,
        lines: invoices.lines,
      })
      .from(invoices)
      .leftJoin(creditNotes, eq(creditNotes.invoiceId, invoices.id))
      .where(and(inArray(invoices.bookingId, bookingIds), eq(invoices.kind, 'admission')))
      .orderBy(asc(invoices.issuedAt), asc(invoices.number)),
  );
  // Oldest first: the last one seen of a booking is its current invoice.
  for (const { bookingId, ...invoice } of issued) {
    const accounts = out.get(bookingId);
    if (accounts) accounts.invoice = invoice;
  }
  return out;
}

/** An order's rows: one per ticket type (a single row, type blank, should an order have none). */
function orderRows(
  order: EventOrder,
  accounts: OrderAccounts | undefined,
  answerCells: (ticketTypeId: string | undefined) => CsvValue[],
): string {
  const invoice = accounts?.invoice ?? null;
  const lines = order.lines.length > 0 ? order.lines : [null];
  return lines
    .map((line, i) => {
      // The invoice's lines were made from the booking's, in the same order (issue-booking-invoices.ts).
      const taxed = line ? invoice?.lines[i] : undefined;
      const first = i === 0;
      const orderFigures: CsvValue[] = first
        ? [
            order.ticketCount,
            order.persons,
            order.checkedIn,
            csvRupees(order.subtotalPaise),
            csvRupees(order.feePaise),
            csvRupees(order.gstPaise),
            csvRupees(order.totalPaise),
            csvRupees(order.refundedPaise),
          ]
        : [null, null, null, null, null, null, null, null];
      return csvRow([
        order.id,
        csvIndiaTime(order.createdAt),
        order.status,
        order.userName,
        order.userEmail,
        order.userPhone,
        order.userState,
        order.userCity,
        csvIndiaTime(order.slotStart),
        csvIndiaTime(order.slotEnd),
        line?.name,
        line?.quantity,
        line && csvRupees(line.pricePaise),
        ...orderFigures,
        accounts?.paymentId,
        invoice?.number,
        invoice?.creditNoteNumber,
        invoice?.buyerGstin,
        invoice?.buyerLegalName,
        taxed?.taxRatePercent,
        taxed && csvRupees(taxed.taxableValuePaise),
        taxed && csvRupees(taxed.cgstPaise),
        // A union territory without a legislature levies UTGST where a state levies SGST (issue 36).
        taxed && csvRupees(invoice?.stateTaxHead === 'UTGST' ? 0 : taxed.sgstPaise),
        taxed && csvRupees(taxed.igstPaise),
        taxed && csvRupees(invoice?.stateTaxHead === 'UTGST' ? taxed.sgstPaise : 0),
        first ? order.discountCode : null,
        line?.discountPerTicketPaise ? csvRupees(line.discountPerTicketPaise) : null,
        first && order.discountCode ? csvRupees(order.discountPaise) : null,
        first && accounts?.addOns ? accounts.addOns.map(addOnLabel).join('; ') : null,
        first && accounts?.addOns
          ? csvRupees(accounts.addOns.reduce((sum, a) => sum + a.totalPaise, 0))
          : null,
        accounts?.channel ?? 'online',
        ...answerCells(line?.id),
      ]);
    })
    .join('');
}
