/**
 * The one CSV cell encoder of every CSV the app writes (orders, the accountant's invoices): RFC 4180 for
 * spreadsheets (Excel, LibreOffice, Google Sheets), rows end in CRLF, quotes doubled.
 *
 * CSV injection (OWASP), for a reader splitting on `,` and for one splitting on `;` (Excel where the
 * decimal mark is a comma): a text cell is quoted when it holds either separator, a double quote, a tab
 * or a line break, or starts like a formula, so "Asha;=cmd|…" stays one cell. Quoting alone is not
 * enough: Excel honours a quote only at the start of a field, and a `;` reader of this `,` file sees
 * the quote mid-field and splits anyway. So text that would start a formula (= + - @, or a tab or
 * carriage return that some strip first), at the start of the cell or after a separator, quote, tab or
 * line break inside it, gets an apostrophe: "=HYPERLINK(…)" and "Asha;'=cmd|…" stay text however the
 * file is split.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return value.number;
  const text = value.replace(FORMULA_START, "'");
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

/** Where a spreadsheet could start a cell (the text's start, or after a separator, quote or line break) and a formula follows. */
const FORMULA_START = /(?<=^|[,;"\t\r\n])(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[",;\t\r\n]|^[=+\-@]/;
