import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, gte, lt } from 'drizzle-orm';
import { SAC_DESCRIPTIONS } from '../../../shared/gst.ts';
import { GST_STATE_CODES } from '../../../shared/gst-states.ts';
import { isIndianState } from '../../../shared/states.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { chainPages, partialCreditNotePages } from '../partial-refunds/partial-credit-note-reads.ts';
import { csvRow, csvRupees } from '../sales/csv-cells.ts';
import { keysetPagesAsync } from '../sales/csv-stream.ts';
import { type Bucket, bucketsOf, creditedBuckets } from './credited-buckets.ts';
import type { InvoiceRow } from './invoice-pdf.ts';
import { indiaMonthBounds, issuedAfter, issuedOrder } from './stream-invoices-csv.ts';
import { zipArchive } from './zip-archive.ts';

const HSN_HEADER = [
  'HSN',
  'Description',
  'UQC',
  'Total Quantity',
  'Total Value',
  'Rate',
  'Taxable Value',
  'Integrated Tax Amount',
  'Central Tax Amount',
  'State/UT Tax Amount',
  'Cess Amount',
] as const;

/**
 * The GSTR-1 tables of one issuer's month, each as the CSV the GST offline tool imports (its template's
 * file name and column headers), for the organiser's own documents or the platform's fee invoices.
 * docs/decisions/0034-gstr1-export-and-e-invoicing.md explains which document goes to which table.
 */
export const GSTR1_HEADERS = {
  b2b: [
    'GSTIN/UIN of Recipient',
    'Receiver Name',
    'Invoice Number',
    'Invoice date',
    'Invoice Value',
    'Place Of Supply',
    'Reverse Charge',
    'Applicable % of Tax Rate',
    'Invoice Type',
    'E-Commerce GSTIN',
    'Rate',
    'Taxable Value',
    'Cess Amount',
  ],
  b2cl: [
    'Invoice Number',
    'Invoice date',
    'Invoice Value',
    'Place Of Supply',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
    'E-Commerce GSTIN',
  ],
  b2cs: [
    'Type',
    'Place Of Supply',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
    'E-Commerce GSTIN',
  ],
  cdnr: [
    'GSTIN/UIN of Recipient',
    'Receiver Name',
    'Note Number',
    'Note Date',
    'Note Type',
    'Place Of Supply',
    'Reverse Charge',
    'Note Supply Type',
    'Note Value',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
  ],
  cdnur: [
    'UR Type',
    'Note Number',
    'Note Date',
    'Note Type',
    'Place Of Supply',
    'Note Value',
    'Applicable % of Tax Rate',
    'Rate',
    'Taxable Value',
    'Cess Amount',
  ],
  exemp: [
    'Description',
    'Nil Rated Supplies',
    'Exempted(other than nil rated/non GST supply)',
    'Non-GST Supplies',
  ],
  // Table 12 in two tabs since May 2025: supplies to registered recipients, and the rest.
  'hsn(b2b)': HSN_HEADER,
  'hsn(b2c)': HSN_HEADER,
  docs: ['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled'],
} as const;

export type Gstr1Table = keyof typeof GSTR1_HEADERS;
export const GSTR1_TABLES = Object.keys(GSTR1_HEADERS) as Gstr1Table[];

/** Invoices to unregistered buyers in another state above this value go to B2CL (₹1 lakh since Aug 2024). */
export const B2CL_THRESHOLD_PAISE = 1_00_000_00;

/** Table 8's rows, in the offline tool's order. */
const EXEMPT_ROWS = [
  ['inter', 'registered', 'Inter-State supplies to registered persons'],
  ['intra', 'registered', 'Intra-State supplies to registered persons'],
  ['inter', 'unregistered', 'Inter-State supplies to unregistered persons'],
  ['intra', 'unregistered', 'Intra-State supplies to unregistered persons'],
] as const;

const PAGE = 500;

/** The month's GSTR-1 as a ZIP of the offline tool's CSVs (b2b.csv … hsn(b2b).csv, hsn(b2c).csv, docs.csv). */
export async function gstr1Zip(db: Db | DbOrTx, issuer: string, month: string): Promise<Uint8Array> {
  const tables = await gstr1Tables(db, issuer, month);
  const encoder = new TextEncoder();
  return zipArchive(
    GSTR1_TABLES.map((name) => ({ name: `${name}.csv`, data: encoder.encode(tables[name]) })),
  );
}

/**
 * Each table's CSV text (header row, then rows; CRLF; no byte-order mark, which the offline tool reads
 * as part of the first header). Invoices and credit notes are read page by page, each page on a later
 * turn of the event loop (as csv-stream.ts does), and summed as they go by: B2CS, exempt, HSN and the
 * documents table are totals, the rest one row per document and rate. An unregistered supplier's bills
 * of supply are left out: without a GSTIN there is no return to file.
 */
export async function gstr1Tables(
  db: Db | DbOrTx,
  issuer: string,
  month: string,
): Promise<Record<Gstr1Table, string>> {
  const { from, to } = indiaMonthBounds(month);
  const rows: Record<'b2b' | 'b2cl' | 'cdnr' | 'cdnur', string[]> = {
    b2b: [],
    b2cl: [],
    cdnr: [],
    cdnur: [],
  };
  const b2cs = new Map<string, number>();
  const exempt = new Map<string, number>();
  // Table 8's Nil Rated column: 0 % supplies entry 81 does not exempt (issue 36).
  const nilRated = new Map<string, number>();
  // Table 12's two tabs: a supply to a registered recipient (buyer GSTIN) or not; a credit note goes with its invoice.
  const hsn = { b2b: new Map<string, HsnTotal>(), b2c: new Map<string, HsnTotal>() };
  const series = new Map<string, Series>();

  const { invoices, creditNotes } = tablesOf(db);
  const invoicePage = async (after: InvoiceRow | undefined) =>
    db
      .select()
      .from(invoices)
      .where(
        and(
          eq(invoices.issuer, issuer),
          gte(invoices.issuedAt, from),
          lt(invoices.issuedAt, to),
          after && issuedAfter(db, invoices, after),
        ),
      )
      .orderBy(...issuedOrder(db, invoices))
      .limit(PAGE);
  for await (const page of keysetPagesAsync(invoicePage, PAGE)) {
    await nextTurn();
    for (const invoice of page) {
      if (!invoice.supplierGstin) continue;
      countDocument(series, invoice.number.split('/')[0]!, invoice.number);
      const section = sectionOf(invoice);
      for (const bucket of bucketsOf(invoice)) {
        addHsn(hsn[hsnTab(invoice)], bucket, 1);
        if (bucket.exempt) {
          addTo(exempt, exemptKey(invoice), bucket.taxable);
        } else if (bucket.nil) {
          addTo(nilRated, exemptKey(invoice), bucket.taxable);
        } else if (section === 'b2b') {
          rows.b2b.push(
            csvRow([
              invoice.buyerGstin,
              invoice.buyerLegalName,
              invoice.number,
              gstDate(invoice.issuedAt),
              csvRupees(invoice.totalPaise),
              place(invoice.placeOfSupply),
              'N',
              null,
              'Regular B2B',
              null,
              bucket.rate,
              csvRupees(bucket.taxable),
              csvRupees(0),
            ]),
          );
        } else if (section === 'b2cl') {
          rows.b2cl.push(
            csvRow([
              invoice.number,
              gstDate(invoice.issuedAt),
              csvRupees(invoice.totalPaise),
              place(invoice.placeOfSupply),
              null,
              bucket.rate,
              csvRupees(bucket.taxable),
              csvRupees(0),
              null,
            ]),
          );
        } else {
          addTo(b2cs, `${invoice.placeOfSupply}\u0000${bucket.rate}`, bucket.taxable);
        }
      }
    }
  }

  const creditPage = async (after: { note: { issuedAt: string; id: string } } | undefined) =>
    db
      .select({ note: creditNotes, invoice: invoices })
      .from(creditNotes)
      .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
      .where(
        and(
          eq(creditNotes.issuer, issuer),
          gte(creditNotes.issuedAt, from),
          lt(creditNotes.issuedAt, to),
          after && issuedAfter(db, creditNotes, after.note),
        ),
      )
      .orderBy(...issuedOrder(db, creditNotes))
      .limit(PAGE);
  // Part refunds' notes (ADR 0043) after the whole ones, through the same code.
  const partPages = partialCreditNotePages(db, issuer, from, to, PAGE);
  for await (const page of chainPages(keysetPagesAsync(creditPage, PAGE), partPages)) {
    await nextTurn();
    for (const { note, invoice } of page) {
      if (!invoice.supplierGstin) continue;
      countDocument(series, note.number.split('/')[0]!, note.number);
      const section = sectionOf(invoice);
      const whole = note.totalPaise === invoice.totalPaise;
      for (const bucket of creditedBuckets(invoice, note, whole)) {
        addHsn(hsn[hsnTab(invoice)], bucket, -1);
        if (bucket.exempt) {
          // Exempt supplies are reported net: the credited part comes off this month's exempt total.
          addTo(exempt, exemptKey(invoice), -bucket.taxable);
        } else if (bucket.nil) {
          addTo(nilRated, exemptKey(invoice), -bucket.taxable);
        } else if (section === 'b2b') {
          rows.cdnr.push(
            csvRow([
              invoice.buyerGstin,
              invoice.buyerLegalName,
              note.number,
              gstDate(note.issuedAt),
              'C',
              place(invoice.placeOfSupply),
              'N',
              'Regular B2B',
              csvRupees(note.totalPaise),
              null,
              bucket.rate,
              csvRupees(bucket.taxable),
              csvRupees(0),
            ]),
          );
        } else if (section === 'b2cl') {
          rows.cdnur.push(
            csvRow([
              'B2CL',
              note.number,
              gstDate(note.issuedAt),
              'C',
              place(invoice.placeOfSupply),
              csvRupees(note.totalPaise),
              null,
              bucket.rate,
              csvRupees(bucket.taxable),
              csvRupees(0),
            ]),
          );
        } else {
          // A credit note to a small unregistered buyer is not reported on its own (CDNUR is for B2CL and
          // exports): it reduces B2CS for its place of supply and rate in the month it is issued.
          addTo(b2cs, `${invoice.placeOfSupply}\u0000${bucket.rate}`, -bucket.taxable);
        }
      }
    }
  }

  const table = (name: Gstr1Table, body: string[]) => csvRow([...GSTR1_HEADERS[name]]) + body.join('');
  return {
    b2b: table('b2b', rows.b2b),
    b2cl: table('b2cl', rows.b2cl),
    b2cs: table(
      'b2cs',
      [...b2cs.entries()]
        .map(([key, taxable]) => {
          const [state, rate] = key.split('\u0000') as [string, string];
          return { place: place(state), rate: Number(rate), taxable };
        })
        // By state code, then rate: the order the offline tool lists them in.
        .sort((a, b) => a.place.localeCompare(b.place) || a.rate - b.rate)
        .map((r) => csvRow(['OE', r.place, null, r.rate, csvRupees(r.taxable), csvRupees(0), null])),
    ),
    cdnr: table('cdnr', rows.cdnr),
    cdnur: table('cdnur', rows.cdnur),
    exemp: table(
      'exemp',
      EXEMPT_ROWS.map(([reach, registration, description]) =>
        csvRow([
          description,
          csvRupees(nilRated.get(`${reach}/${registration}`) ?? 0),
          csvRupees(exempt.get(`${reach}/${registration}`) ?? 0),
          csvRupees(0),
        ]),
      ),
    ),
    'hsn(b2b)': table('hsn(b2b)', hsnRows(hsn.b2b)),
    'hsn(b2c)': table('hsn(b2c)', hsnRows(hsn.b2c)),
    docs: table(
      'docs',
      [...series.entries()]
        .sort(([a], [b]) => documentOrder(a) - documentOrder(b) || a.localeCompare(b))
        .map(([prefix, s]) => csvRow([natureOf(prefix), s.from, s.to, s.count, 0])),
    ),
  };
}

type Section = 'b2b' | 'b2cl' | 'b2cs';

/** Table 12's tab for an invoice's supplies and its credit notes': B2B with the recipient's GSTIN. */
function hsnTab(invoice: InvoiceRow): 'b2b' | 'b2c' {
  return invoice.buyerGstin ? 'b2b' : 'b2c';
}

/** A tab of table 12: per SAC and rate, net of credit notes. */
function hsnRows(hsn: Map<string, HsnTotal>): string[] {
  return [...hsn.values()]
    .sort((a, b) => a.sac.localeCompare(b.sac) || a.rate - b.rate)
    .map((h) =>
      csvRow([
        h.sac,
        sacDescription(h.sac),
        'NA',
        h.quantity,
        csvRupees(h.taxable + h.igst + h.cgst + h.sgst),
        h.rate,
        csvRupees(h.taxable),
        csvRupees(h.igst),
        csvRupees(h.cgst),
        csvRupees(h.sgst),
        csvRupees(0),
      ]),
    );
}

/**
 * Where an invoice's taxable lines are reported: B2B with the buyer's GSTIN; B2CL for an unregistered
 * buyer in another state when the invoice is worth more than ₹1 lakh; otherwise totals in B2CS.
 */
function sectionOf(invoice: InvoiceRow): Section {
  if (invoice.buyerGstin) return 'b2b';
  const interState = invoice.placeOfSupply !== invoice.supplierState;
  return interState && invoice.totalPaise > B2CL_THRESHOLD_PAISE ? 'b2cl' : 'b2cs';
}

function exemptKey(invoice: InvoiceRow): string {
  const reach = invoice.placeOfSupply !== invoice.supplierState ? 'inter' : 'intra';
  return `${reach}/${invoice.buyerGstin ? 'registered' : 'unregistered'}`;
}

type HsnTotal = Omit<Bucket, 'exempt' | 'nil'>;

function addHsn(hsn: Map<string, HsnTotal>, b: Bucket, sign: 1 | -1) {
  const key = `${b.sac}\u0000${b.rate}`;
  const h = hsn.get(key) ?? { sac: b.sac, rate: b.rate, quantity: 0, taxable: 0, igst: 0, cgst: 0, sgst: 0 };
  h.quantity += sign * b.quantity;
  h.taxable += sign * b.taxable;
  h.igst += sign * b.igst;
  h.cgst += sign * b.cgst;
  h.sgst += sign * b.sgst;
  hsn.set(key, h);
}

function addTo(map: Map<string, number>, key: string, paise: number) {
  map.set(key, (map.get(key) ?? 0) + paise);
}

interface Series {
  from: string;
  to: string;
  count: number;
}

/** Table 13: per series (INV, CRN, PLF…), the first and last number issued in the month and how many. */
function countDocument(series: Map<string, Series>, prefix: string, number: string) {
  const s = series.get(prefix);
  if (!s) {
    series.set(prefix, { from: number, to: number, count: 1 });
    return;
  }
  // Numbers are zero-padded within a financial year, and a month lies within one, so text order is number order.
  if (number < s.from) s.from = number;
  if (number > s.to) s.to = number;
  s.count++;
}

const CREDIT_NOTE_PREFIX = 'CRN';

function natureOf(prefix: string): string {
  return prefix === CREDIT_NOTE_PREFIX ? 'Credit Note' : 'Invoices for outward supply';
}

function documentOrder(prefix: string): number {
  return prefix === CREDIT_NOTE_PREFIX ? 1 : 0;
}

/** What each SAC the app issues is, for table 12's description; an add-on's own code is 'Services'. */
function sacDescription(sac: string): string {
  return SAC_DESCRIPTIONS[sac] ?? 'Services';
}

/** The offline tool's date: 05-Nov-2026, the IST calendar day. */
function gstDate(instant: string): string {
  const ist = new Date(new Date(instant).getTime() + 330 * 60_000);
  const day = String(ist.getUTCDate()).padStart(2, '0');
  return `${day}-${MONTHS[ist.getUTCMonth()]}-${ist.getUTCFullYear()}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** GSTR-1 writes the place of supply as '27-Maharashtra'. */
function place(state: string): string {
  return isIndianState(state) ? `${GST_STATE_CODES[state]}-${state}` : state;
}
