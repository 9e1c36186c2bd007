import type { DbOrTx } from '../../db/client.ts';
import { csvRow } from './csv-cells.ts';
import { csvStream } from './csv-stream.ts';
import { monthlyPayoutRows } from './get-monthly-payout-statement.ts';
import { PAYOUT_CSV_HEADER, payoutCells } from './stream-payout-csv.ts';

/** The organiser's month: the event, then an event's statement columns; the last row is 'Total'. */
export const MONTHLY_PAYOUT_CSV_HEADER = ['Event', ...PAYOUT_CSV_HEADER] as const;

/**
 * The organiser's payout statement of one month as CSV (issue 40): a row per event with activity in the
 * month, each that event's own statement for the month (the same cells as its CSV), and the total. The
 * figures are get-monthly-payout-statement.ts's, so the CSV and the console page never differ. A month
 * lists one row per event, so the rows are read before the answer starts, in one piece: a month still
 * to come is refused (400) before any of the file is sent.
 */
export async function streamMonthlyPayoutCsv(
  db: DbOrTx,
  userId: string,
  month: string,
  now: Date,
): Promise<ReadableStream<Uint8Array>> {
  const { events, total } = await monthlyPayoutRows(db, userId, month, now);
  const rows = [
    ...events.map((e) => csvRow([e.eventName, ...payoutCells(e)])),
    csvRow(['Total', ...payoutCells(total)]),
  ].join('');
  return csvStream(MONTHLY_PAYOUT_CSV_HEADER, [rows][Symbol.iterator]());
}
