import type { OrdersFilter } from '../../../shared/sales-schemas.ts';
import type { Db } from '../../db/client.ts';
import { csvIndiaTime, csvRow, csvRupees } from './csv-cells.ts';
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
 * The orders table as CSV, for a spreadsheet: UTF-8 with a byte-order mark (so Excel reads ₹ and names
 * in Devanagari right), a header row, dates in ISO 8601 India time with their offset, rupees with two
 * decimals. A pull stream: each page of rows is read when the client has taken the previous one, so an
 * event with 50,000 orders never sits in memory and a slow download holds no database lock (every page
 * is its own short read).
 */
export function streamOrdersCsv(
  db: Db,
  eventId: string,
  filter: OrdersFilter,
  pageSize = CSV_PAGE_SIZE,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: string | undefined;
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(`\uFEFF${csvRow(HEADER)}`));
          return;
        }
        const rows = orderPage(db, eventId, filter, { limit: pageSize, after });
        if (rows.length > 0) controller.enqueue(encoder.encode(rows.map(orderRow).join('')));
        const last = rows.at(-1);
        if (rows.length < pageSize || !last) controller.close();
        else after = cursorOf(last);
      },
    },
    // Read nothing ahead of the client: a page is queried only when the previous one has been taken.
    { highWaterMark: 0 },
  );
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
