import type { OrdersFilter } from '../../../shared/sales-schemas.ts';
import type { Db } from '../../db/client.ts';
import { csvIndiaTime, csvRow, csvRupees } from './csv-cells.ts';
import { csvStream, keysetPages } from './csv-stream.ts';
import { cursorOf, type EventOrder, orderPage } from './list-event-orders.ts';

/** Rows read per query: enough to keep the database busy, few enough that memory stays flat. */
export const CSV_PAGE_SIZE = 500;

const HEADER = [
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
  'Ticket types',
  'Tickets',
  'Persons',
  'Checked in',
  'Tickets (INR)',
  'Convenience fee (INR)',
  'GST on fee (INR)',
  'Total paid (INR)',
  'Refunded (INR)',
];

/**
 * The orders table as CSV, for a spreadsheet (csv-stream.ts: a byte-order mark, a header row, one page
 * of rows per pull, so an event with 50,000 orders never sits in memory), dates in ISO 8601 India time
 * with their offset, rupees with two decimals.
 */
export function streamOrdersCsv(
  db: Db,
  eventId: string,
  filter: OrdersFilter,
  pageSize = CSV_PAGE_SIZE,
): ReadableStream<Uint8Array> {
  return csvStream(HEADER, pages());

  function* pages() {
    const read = (after: EventOrder | undefined) =>
      orderPage(db, eventId, filter, { limit: pageSize, after: after && cursorOf(after) });
    for (const rows of keysetPages(read, pageSize)) yield rows.map(orderRow).join('');
  }
}

function orderRow(order: EventOrder): string {
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
    order.lines.map((line) => `${line.name} x ${line.quantity}`).join('; '),
    order.ticketCount,
    order.persons,
    order.checkedIn,
    csvRupees(order.subtotalPaise),
    csvRupees(order.feePaise),
    csvRupees(order.gstPaise),
    csvRupees(order.totalPaise),
    csvRupees(order.refundedPaise),
  ]);
}
