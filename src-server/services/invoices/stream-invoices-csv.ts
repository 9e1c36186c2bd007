import { and, asc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import { GST_STATE_CODES } from '../../../shared/gst-states.ts';
import { isIndianState } from '../../../shared/states.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { bytewise } from '../../db/engine/reads.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import { chainPages, partialCreditNotePages } from '../partial-refunds/partial-credit-note-reads.ts';
import { csvIndiaTime, csvRow, csvRupees } from '../sales/csv-cells.ts';
import { csvStream, keysetPagesAsync } from '../sales/csv-stream.ts';
import { creditedBuckets } from './credited-buckets.ts';
import type { CreditNoteRow, InvoiceRow } from './invoice-pdf.ts';

const PAGE = 500;

const HEADER = [
  'Section',
  'Document number',
  'Date',
  'Buyer GSTIN',
  'Buyer legal name',
  'Place of supply',
  'Rate (%)',
  'Taxable value (INR)',
  'IGST (INR)',
  'CGST (INR)',
  'SGST (INR)',
  'UTGST (INR)',
  'Document value (INR)',
  'Refers to invoice',
];

/** '2026-04' → the month's bounds as UTC instants of IST midnights. */
export function indiaMonthBounds(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const istMidnight = (year: number, monthIndex: number) =>
    new Date(Date.UTC(year, monthIndex, 1) - 330 * 60_000).toISOString();
  return { from: istMidnight(y, m - 1), to: istMidnight(y, m) };
}

interface Bucket {
  taxable: number;
  igst: number;
  cgst: number;
  sgst: number;
  /** A union territory without a legislature levies UTGST instead of SGST (stored in the sgst amounts). */
  utgst: number;
}

/**
 * One issuer's documents of one month (IST), for the accountant's GSTR-1: a 'B2B' row per invoice and
 * rate for buyers with a GSTIN, then 'B2C' totals by place of supply and rate, 'Nil rated' and 'Exempt' totals, and a
 * 'Credit note' row per credit note issued in the month and rate of the supply it credits. Streamed
 * page by page like the orders CSV (csv-stream.ts); the B2C totals (at most states × rates) are summed
 * while the pages go by.
 */
export function streamInvoicesCsv(
  db: Db | DbOrTx,
  issuer: string,
  month: string,
): ReadableStream<Uint8Array> {
  const { from, to } = indiaMonthBounds(month);
  const { invoices, creditNotes } = tablesOf(db);
  return csvStream(HEADER, pieces());

  async function* pieces() {
    const b2c = new Map<string, Bucket>();
    let exempt = 0;
    // 0 % supplies entry 81 does not exempt: their own 'Nil rated' total, never under 'Exempt' (issue 36).
    let nilRated = 0;
    const invoicePage = async (after: InvoiceRow | undefined) =>
      db
        .select()
        .from(invoices)
        .where(and(eq(invoices.issuer, issuer), inMonthAfter(db, invoices, from, to, after)))
        .orderBy(...issuedOrder(db, invoices))
        .limit(PAGE);
    for await (const rows of keysetPagesAsync(invoicePage, PAGE)) {
      const out: string[] = [];
      for (const invoice of rows) {
        nilRated += invoice.lines.reduce((sum, l) => sum + (l.kind === 'nil' ? l.taxableValuePaise : 0), 0);
        for (const [rate, bucket] of byRate(invoice)) {
          if (rate === 0) {
            exempt += bucket.taxable;
          } else if (invoice.buyerGstin) {
            out.push(
              documentRow(
                'B2B',
                invoice.number,
                invoice.issuedAt,
                invoice,
                rate,
                bucket,
                total(bucket),
                null,
              ),
            );
          } else {
            const key = `${invoice.placeOfSupply}\u0000${rate}`;
            b2c.set(key, add(b2c.get(key), bucket));
          }
        }
      }
      yield out.join('');
    }

    const totals = [...b2c.entries()].sort(([a], [b]) => a.localeCompare(b));
    const lines = totals.map(([key, s]) => {
      const [state, rate] = key.split('\u0000') as [string, string];
      return csvRow([
        'B2C',
        null,
        null,
        null,
        null,
        place(state),
        Number(rate),
        ...amounts(s),
        csvRupees(total(s)),
        null,
      ]);
    });
    // Untaxed supplies, one row each: nil-rated (0 %) and exempt (entry 81) are separate in the returns.
    for (const [label, paise] of [
      ['Nil rated', nilRated],
      ['Exempt', exempt],
    ] as const) {
      if (paise <= 0) continue;
      const bucket = { taxable: paise, igst: 0, cgst: 0, sgst: 0, utgst: 0 };
      lines.push(
        csvRow([label, null, null, null, null, null, 0, ...amounts(bucket), csvRupees(paise), null]),
      );
    }
    yield lines.join('');

    const creditPage = async (after: { note: { issuedAt: string; id: string } } | undefined) =>
      db
        .select({ note: creditNotes, invoice: invoices })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .where(and(eq(creditNotes.issuer, issuer), inMonthAfter(db, creditNotes, from, to, after?.note)))
        .orderBy(...issuedOrder(db, creditNotes))
        .limit(PAGE);
    // Part refunds' notes (ADR 0043) after the whole ones, as the same rows.
    const partPages = partialCreditNotePages(db, issuer, from, to, PAGE);
    for await (const rows of chainPages(keysetPagesAsync(creditPage, PAGE), partPages)) {
      yield rows
        .flatMap(({ note, invoice }) =>
          [...creditedByRate(invoice, note)].map(([rate, bucket]) =>
            documentRow(
              'Credit note',
              note.number,
              note.issuedAt,
              invoice,
              rate,
              bucket,
              total(bucket),
              invoice.number,
            ),
          ),
        )
        .join('');
    }
  }
}

/** A document's row: its number, IST date, buyer, place of supply, rate and amounts. */
function documentRow(
  section: string,
  number: string,
  issuedAt: string,
  buyer: { buyerGstin: string | null; buyerLegalName: string | null; placeOfSupply: string },
  rate: number | null,
  bucket: Bucket,
  documentValue: number,
  refersTo: string | null,
): string {
  return csvRow([
    section,
    number,
    csvIndiaTime(issuedAt).slice(0, 10),
    buyer.buyerGstin,
    buyer.buyerLegalName,
    place(buyer.placeOfSupply),
    rate,
    ...amounts(bucket),
    csvRupees(documentValue),
    refersTo,
  ]);
}

type DocumentTable = Tables['invoices'] | Tables['creditNotes'];

/** A document table's rows issued within [from, to), after the keyset cursor (issued at, id). */
function inMonthAfter(
  db: object,
  table: DocumentTable,
  from: string,
  to: string,
  after: { issuedAt: string; id: string } | undefined,
): SQL | undefined {
  return and(gte(table.issuedAt, from), lt(table.issuedAt, to), after && issuedAfter(db, table, after));
}

/**
 * The keyset's order, (issued at, id), by bytes on both engines (reads.ts `bytewise`): the cursor's
 * comparison must agree with it, whatever PostgreSQL's locale would make of the text.
 */
export function issuedOrder(db: object, table: DocumentTable): [SQL, SQL] {
  return [asc(bytewise(db, table.issuedAt)), asc(bytewise(db, table.id))];
}

/** Rows after the keyset cursor in `issuedOrder`. */
export function issuedAfter(
  db: object,
  table: DocumentTable,
  after: { issuedAt: string; id: string },
): SQL | undefined {
  return or(
    sql`${bytewise(db, table.issuedAt)} > ${after.issuedAt}`,
    and(eq(table.issuedAt, after.issuedAt), sql`${bytewise(db, table.id)} > ${after.id}`),
  );
}

function amounts(b: Bucket) {
  return [csvRupees(b.taxable), csvRupees(b.igst), csvRupees(b.cgst), csvRupees(b.sgst), csvRupees(b.utgst)];
}

function total(b: Bucket): number {
  return b.taxable + b.igst + b.cgst + b.sgst + b.utgst;
}

/** The stored state-level amount under its head: SGST, or UTGST when the invoice says so. */
function stateTaxOf(head: string | null, amount: number): { sgst: number; utgst: number } {
  return head === 'UTGST' ? { sgst: 0, utgst: amount } : { sgst: amount, utgst: 0 };
}

function add(sum: Bucket | undefined, b: Bucket): Bucket {
  if (!sum) return { ...b };
  return {
    taxable: sum.taxable + b.taxable,
    igst: sum.igst + b.igst,
    cgst: sum.cgst + b.cgst,
    sgst: sum.sgst + b.sgst,
    utgst: sum.utgst + b.utgst,
  };
}

/** An invoice's lines summed per rate (0 = exempt); nil-rated lines are totalled on their own. */
function byRate(invoice: InvoiceRow): Map<number, Bucket> {
  const out = new Map<number, Bucket>();
  for (const line of invoice.lines) {
    if (line.kind === 'nil') continue;
    const bucket = {
      taxable: line.taxableValuePaise,
      igst: line.igstPaise,
      cgst: line.cgstPaise,
      ...stateTaxOf(invoice.stateTaxHead, line.sgstPaise),
    };
    out.set(line.taxRatePercent, add(out.get(line.taxRatePercent), bucket));
  }
  return out;
}

/**
 * A credit note's amounts at the rates of the supply it credits: spread over its invoice's groups as
 * GSTR-1's credit-note rows are (credited-buckets.ts), then summed per rate (0 = exempt). A rate the
 * note gives nothing back on has no row, unless it is the invoice's only one.
 */
function creditedByRate(invoice: InvoiceRow, note: CreditNoteRow): Map<number, Bucket> {
  const out = new Map<number, Bucket>();
  const credited = creditedBuckets(invoice, note, note.totalPaise === invoice.totalPaise);
  for (const b of credited) {
    const bucket = {
      taxable: b.taxable,
      igst: b.igst,
      cgst: b.cgst,
      ...stateTaxOf(invoice.stateTaxHead, b.sgst),
    };
    if (total(bucket) === 0 && credited.length > 1) continue;
    out.set(b.rate, add(out.get(b.rate), bucket));
  }
  return out;
}

/** GSTR-1 writes the place of supply as '27-Maharashtra'. */
function place(state: string): string {
  return isIndianState(state) ? `${GST_STATE_CODES[state]}-${state}` : state;
}
