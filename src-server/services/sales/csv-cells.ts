/**
 * The one CSV cell encoder of every CSV the app writes (orders, the accountant's invoices): RFC 4180 for
 * spreadsheets (Excel, LibreOffice, Google Sheets), rows end in CRLF, quotes doubled. A text cell is
 * quoted when it holds either separator a spreadsheet may split on (`,`, or `;` in locales whose
 * decimal mark is a comma, where Excel reads a `,` file as `;`-separated), a double quote, a tab or a
 * line break, or when it starts like a formula; a buyer named "Asha;=cmd|…" stays one cell. Text that
 * a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return that some
 * strip first) is prefixed with an apostrophe as well (OWASP "CSV injection"): "=HYPERLINK(…)" stays text.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return value.number;
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(value) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A number already written out by us (rupees with two decimals): never neutralised, never quoted. */
export type CsvNumber = { number: string };
export type CsvValue = string | number | CsvNumber | null | undefined;

export function csvRow(values: CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Paise as rupees with exactly two decimals and no grouping, which every spreadsheet reads as a number. */
export function csvRupees(paise: number): CsvNumber {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return { number: `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}` };
}

const INDIA_OFFSET_MS = 330 * 60_000;

/** An instant as ISO 8601 in India time with its offset, e.g. '2026-12-05T19:00:00+05:30'. */
export function csvIndiaTime(instant: string | null): string {
  if (!instant) return '';
  const shifted = new Date(new Date(instant).getTime() + INDIA_OFFSET_MS);
  return `${shifted.toISOString().slice(0, 19)}+05:30`;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]|^[=+\-@]/;
