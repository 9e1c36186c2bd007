import { and, asc, eq, gt, gte, lt, or } from 'drizzle-orm';
import { GST_STATE_CODES } from '../../../shared/gst-states.ts';
import { isIndianState } from '../../../shared/states.ts';
import type { Db } from '../../db/client.ts';
import { creditNotes, invoices } from '../../db/schema/invoices.ts';
import { csvIndiaTime, csvRow, csvRupees } from '../sales/csv-cells.ts';
import type { InvoiceRow } from './invoice-pdf.ts';

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
}

/**
 * One issuer's documents of one month (IST), for the accountant's GSTR-1: a 'B2B' row per invoice and
 * rate for buyers with a GSTIN, then 'B2C' totals by place of supply and rate, 'Exempt' totals, and a
 * 'Credit note' row per credit note issued in the month. Streamed page by page like the orders CSV;
 * the B2C totals (at most states × rates) are summed while the pages go by.
 */
export function streamInvoicesCsv(db: Db, issuer: string, month: string): ReadableStream<Uint8Array> {
  const { from, to } = indiaMonthBounds(month);
  const encoder = new TextEncoder();
  const b2c = new Map<string, Bucket>();
  let exempt = 0;
  let after: { issuedAt: string; id: string } | null = null;
  let stage: 'header' | 'invoices' | 'credit' | 'done' = 'header';
  let creditAfter: { issuedAt: string; id: string } | null = null;

  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        // A page may produce nothing (a month with no B2B rows): keep going until there is something
        // to hand over or the end, since a pull that enqueues nothing is not called again.
        for (;;) {
          const chunk = step();
          if (chunk === null) {
            controller.close();
            return;
          }
          if (chunk !== '') {
            controller.enqueue(encoder.encode(chunk));
            return;
          }
        }
      },
    },
    { highWaterMark: 0 },
  );

  /** The next piece of the file: '' when this step produced nothing, null at the end. */
  function step(): string | null {
    if (stage === 'header') {
      stage = 'invoices';
      return `\uFEFF${csvRow(HEADER)}`;
    }
    if (stage === 'invoices') {
      const rows = db
        .select()
        .from(invoices)
        .where(
          and(
            eq(invoices.issuer, issuer),
            gte(invoices.issuedAt, from),
            lt(invoices.issuedAt, to),
            after
              ? or(
                  gt(invoices.issuedAt, after.issuedAt),
                  and(eq(invoices.issuedAt, after.issuedAt), gt(invoices.id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(asc(invoices.issuedAt), asc(invoices.id))
        .limit(PAGE)
        .all();
      const out: string[] = [];
      for (const invoice of rows) {
        for (const [rate, bucket] of byRate(invoice)) {
          if (rate === 0) {
            exempt += bucket.taxable;
          } else if (invoice.buyerGstin) {
            out.push(
              csvRow([
                'B2B',
                invoice.number,
                csvIndiaTime(invoice.issuedAt).slice(0, 10),
                invoice.buyerGstin,
                invoice.buyerLegalName,
                place(invoice.placeOfSupply),
                rate,
                csvRupees(bucket.taxable),
                csvRupees(bucket.igst),
                csvRupees(bucket.cgst),
                csvRupees(bucket.sgst),
                csvRupees(bucket.taxable + bucket.igst + bucket.cgst + bucket.sgst),
                null,
              ]),
            );
          } else {
            const key = `${invoice.placeOfSupply}\u0000${rate}`;
            const sum = b2c.get(key) ?? { taxable: 0, igst: 0, cgst: 0, sgst: 0 };
            sum.taxable += bucket.taxable;
            sum.igst += bucket.igst;
            sum.cgst += bucket.cgst;
            sum.sgst += bucket.sgst;
            b2c.set(key, sum);
          }
        }
      }
      const last = rows.at(-1);
      if (rows.length < PAGE || !last) {
        stage = 'credit';
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
            csvRupees(s.taxable),
            csvRupees(s.igst),
            csvRupees(s.cgst),
            csvRupees(s.sgst),
            csvRupees(s.taxable + s.igst + s.cgst + s.sgst),
            null,
          ]);
        });
        if (exempt > 0) {
          const z = csvRupees(0);
          lines.push(
            csvRow([
              'Exempt',
              null,
              null,
              null,
              null,
              null,
              0,
              csvRupees(exempt),
              z,
              z,
              z,
              csvRupees(exempt),
              null,
            ]),
          );
        }
        out.push(...lines);
      } else {
        after = { issuedAt: last.issuedAt, id: last.id };
      }
      return out.join('');
    }
    if (stage === 'credit') {
      const rows = db
        .select({
          id: creditNotes.id,
          number: creditNotes.number,
          issuedAt: creditNotes.issuedAt,
          taxable: creditNotes.taxableValuePaise,
          igst: creditNotes.igstPaise,
          cgst: creditNotes.cgstPaise,
          sgst: creditNotes.sgstPaise,
          total: creditNotes.totalPaise,
          invoiceNumber: invoices.number,
          buyerGstin: invoices.buyerGstin,
          buyerLegalName: invoices.buyerLegalName,
          placeOfSupply: invoices.placeOfSupply,
        })
        .from(creditNotes)
        .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
        .where(
          and(
            eq(creditNotes.issuer, issuer),
            gte(creditNotes.issuedAt, from),
            lt(creditNotes.issuedAt, to),
            creditAfter
              ? or(
                  gt(creditNotes.issuedAt, creditAfter.issuedAt),
                  and(eq(creditNotes.issuedAt, creditAfter.issuedAt), gt(creditNotes.id, creditAfter.id)),
                )
              : undefined,
          ),
        )
        .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.id))
        .limit(PAGE)
        .all();
      const text = rows
        .map((r) =>
          csvRow([
            'Credit note',
            r.number,
            csvIndiaTime(r.issuedAt).slice(0, 10),
            r.buyerGstin,
            r.buyerLegalName,
            place(r.placeOfSupply),
            null,
            csvRupees(r.taxable),
            csvRupees(r.igst),
            csvRupees(r.cgst),
            csvRupees(r.sgst),
            csvRupees(r.total),
            r.invoiceNumber,
          ]),
        )
        .join('');
      const last = rows.at(-1);
      if (rows.length < PAGE || !last) stage = 'done';
      else creditAfter = { issuedAt: last.issuedAt, id: last.id };
      return text;
    }
    return null;
  }
}

/** An invoice's lines summed per rate (0 = exempt). */
function byRate(invoice: InvoiceRow): Map<number, Bucket> {
  const out = new Map<number, Bucket>();
  for (const line of invoice.lines) {
    const sum = out.get(line.taxRatePercent) ?? { taxable: 0, igst: 0, cgst: 0, sgst: 0 };
    sum.taxable += line.taxableValuePaise;
    sum.igst += line.igstPaise;
    sum.cgst += line.cgstPaise;
    sum.sgst += line.sgstPaise;
    out.set(line.taxRatePercent, sum);
  }
  return out;
}

/** GSTR-1 writes the place of supply as '27-Maharashtra'. */
function place(state: string): string {
  return isIndianState(state) ? `${GST_STATE_CODES[state]}-${state}` : state;
}
