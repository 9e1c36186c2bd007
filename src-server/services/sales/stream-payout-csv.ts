import type { DbOrTx } from '../../db/client.ts';
import { type CsvValue, csvRow, csvRupees } from './csv-cells.ts';
import { csvStream } from './csv-stream.ts';
import { type PayoutMonth, payoutMonth, payoutMonths } from './get-payout-statement.ts';

/** The payout statement's columns: one row per month (India time), then 'Total' when every month is asked for. */
export const PAYOUT_CSV_HEADER = [
  'Month',
  'Orders',
  'Ticket revenue (INR)',
  'Add-on revenue (INR)',
  'GST on tickets and add-ons (INR)',
  'Convenience fees, platform (INR)',
  'GST on fees, platform (INR)',
  'Refunds (INR)',
  'Refunds pending (INR)',
  'Refunds from organiser revenue (INR)',
  'Credit notes',
  'Credit notes value (INR)',
  'Discounts (INR)',
  'Comps',
  'Payable to organiser (INR)',
  // Issue 40 (ADR 0042), after the older columns: door sales, which the organiser collected at the venue.
  'Door sales',
  'Door cash (INR)',
  'Door UPI (INR)',
  'Collected at the door (INR)',
] as const;

/**
 * The statement as CSV through the one encoder and stream of every CSV the app writes (csv-cells.ts,
 * csv-stream.ts). An event has a row per month it sold or refunded in, a few dozen at most, so the rows
 * come in one piece; the figures are get-payout-statement.ts's, so the CSV and the page never differ.
 */
export function streamPayoutCsv(
  db: DbOrTx,
  eventId: string,
  month: string | undefined,
): ReadableStream<Uint8Array> {
  return csvStream(PAYOUT_CSV_HEADER, pieces());

  async function* pieces() {
    if (month) {
      yield rowOf(await payoutMonth(db, eventId, month));
      return;
    }
    const { months, total } = await payoutMonths(db, eventId);
    yield [...months, total].map(rowOf).join('');
  }
}

function rowOf(m: PayoutMonth): string {
  return csvRow(payoutCells(m));
}

/** A statement row's cells in PAYOUT_CSV_HEADER's order (the organiser's month CSV puts its event first). */
export function payoutCells(m: PayoutMonth): CsvValue[] {
  return [
    m.month,
    m.orders,
    csvRupees(m.ticketRevenuePaise),
    csvRupees(m.addOnRevenuePaise),
    csvRupees(m.ticketGstPaise),
    csvRupees(m.convenienceFeesPaise),
    csvRupees(m.feeGstPaise),
    csvRupees(m.refundsPaise),
    csvRupees(m.refundsPendingPaise),
    csvRupees(m.ticketRefundsPaise),
    m.creditNotes,
    csvRupees(m.creditNotesPaise),
    csvRupees(m.discountsPaise),
    m.comps,
    csvRupees(m.payablePaise),
    m.doorSales,
    csvRupees(m.doorCashPaise),
    csvRupees(m.doorUpiPaise),
    csvRupees(m.collectedAtDoorPaise),
  ];
}
