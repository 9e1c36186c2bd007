import { describe, expect, it } from 'vitest';
import { csvCell, csvIndiaTime, csvRow, csvRupees } from './csv-cells.ts';

describe('csvCell', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Asha Verma')).toBe('Asha Verma');
    expect(csvCell('अनुष्का')).toBe('अनुष्का');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling quotes (RFC 4180)', () => {
    expect(csvCell('Verma, Asha')).toBe('"Verma, Asha"');
    expect(csvCell('The "Boss"')).toBe('"The ""Boss"""');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  it('quotes a semicolon and a tab too, so a `;`- or tab-splitting spreadsheet keeps the cell whole', () => {
    expect(csvCell('Gold; Silver')).toBe('"Gold; Silver"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
  });

  it('neutralises a formula that a separator, quote or line break inside the cell would start (issue 35)', () => {
    // Excel in a locale whose decimal mark is a comma splits on `;`, and honours a quote only at the
    // start of a field: unneutralised, "=cmd|…" became a cell of its own.
    expect(csvCell("Asha;=cmd|' /C calc'!A0")).toBe(`"Asha;'=cmd|' /C calc'!A0"`);
    expect(csvCell('Rao,+1')).toBe(`"Rao,'+1"`);
    expect(csvCell('x"@SUM(A1)')).toBe(`"x""'@SUM(A1)"`);
    expect(csvCell('line\n-2+3')).toBe(`"line\n'-2+3"`);
    expect(csvCell('a; b, c - d')).toBe('"a; b, c - d"');
  });

  it.each([
    ['=1+1', `"'=1+1"`],
    ['+91 98765 43210', `"'+91 98765 43210"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    // A tab reader would start a cell after the tab as well.
    ['\t=1+1', `"'\t'=1+1"`],
    ['\r=1+1', `"'\r'=1+1"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['=1;=2', `"'=1;'=2"`],
  ])('neutralises and quotes a would-be formula %j', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('does not touch a formula character inside the text, nor the numbers it writes itself', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('asha+tickets@example.com')).toBe('asha+tickets@example.com');
    expect(csvCell(csvRupees(-1250))).toBe('-12.50');
  });
});

describe('csvRow, csvRupees and csvIndiaTime', () => {
  it('ends a row with CRLF', () => {
    expect(csvRow(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });

  it('writes paise as rupees with exactly two decimals, without grouping', () => {
    expect(csvRupees(0).number).toBe('0.00');
    expect(csvRupees(5).number).toBe('0.05');
    expect(csvRupees(99_999).number).toBe('999.99');
    expect(csvRupees(12_345_600).number).toBe('123456.00');
  });

  it('writes instants as ISO 8601 India time with the offset', () => {
    expect(csvIndiaTime('2026-12-05T13:30:00.000Z')).toBe('2026-12-05T19:00:00+05:30');
    expect(csvIndiaTime('2026-12-31T20:00:00.000Z')).toBe('2027-01-01T01:30:00+05:30');
    expect(csvIndiaTime(null)).toBe('');
  });
});
