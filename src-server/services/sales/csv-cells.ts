/**
 * RFC 4180 CSV for spreadsheets (Excel, LibreOffice, Google Sheets): rows end in CRLF; a field with a
 * comma, a double quote or a line break is quoted, quotes doubled. Text that a spreadsheet would run
 * as a formula (starting with = + - @, or a tab or carriage return that some strip first) is prefixed
 * with an apostrophe (OWASP "CSV injection"): a buyer named "=HYPERLINK(…)" stays text.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? neutralised(value) : value.number;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
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

function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
