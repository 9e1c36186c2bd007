import { sql } from 'drizzle-orm';
import { row, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { DocumentSeries } from '../../db/schema/invoices.ts';
import type { WriteTx } from '../../db/write-transaction.ts';
import type { DbOrTx } from '../inventory/holds.ts';

/** India's financial year (April–March) of an instant, by the IST calendar: '25-26'. */
export function financialYearOf(instant: Date): string {
  const ist = new Date(instant.getTime() + 330 * 60_000);
  const year = ist.getUTCMonth() >= 3 ? ist.getUTCFullYear() : ist.getUTCFullYear() - 1;
  const two = (y: number) => String(y % 100).padStart(2, '0');
  return `${two(year)}-${two(year + 1)}`;
}

const SERIES_PREFIX: Record<DocumentSeries, string> = {
  invoice: 'INV',
  credit_note: 'CRN',
  platform_invoice: 'PLF',
  bill_of_supply: 'BOS',
};
/** 'INV/25-26/000123': 16 characters, the GST rules' maximum; so at most 999 999 a year per series. */
const MAX_NUMBER = 999_999;

/**
 * The next number of one issuer's series in a financial year. Must run inside the caller's write
 * transaction (BEGIN IMMEDIATE): the one UPSERT … RETURNING is serialised with every other, and rolls
 * back with the document it numbers, so numbers are consecutive with no gaps and no duplicates.
 */
export function allocateDocumentNumber(
  tx: DbOrTx,
  issuer: string,
  series: DocumentSeries,
  now: Date,
): { number: string; financialYear: string } {
  return runSync(documentNumberSteps(tx as WriteTx, issuer, series, now));
}

/**
 * `allocateDocumentNumber` written once for both engines (ADR 0045). On PostgreSQL the UPSERT's row lock
 * on the series' counter holds other issuers of the same series back until this transaction ends, so
 * the numbers stay consecutive there too; other issuers' series are other rows and never wait.
 */
export function* documentNumberSteps(
  tx: WriteTx,
  issuer: string,
  series: DocumentSeries,
  now: Date,
): Steps<{ number: string; financialYear: string }> {
  const { documentCounters } = tablesOf(tx);
  const financialYear = financialYearOf(now);
  const counter = yield* row(
    tx
      .insert(documentCounters)
      .values({ issuer, series, financialYear, lastNumber: 1 })
      .onConflictDoUpdate({
        target: [documentCounters.issuer, documentCounters.series, documentCounters.financialYear],
        set: { lastNumber: sql`${documentCounters.lastNumber} + 1` },
      })
      .returning({ lastNumber: documentCounters.lastNumber }),
  );
  const lastNumber = Number(counter!.lastNumber);
  if (lastNumber > MAX_NUMBER) throw new Error(`${series} numbers for ${financialYear} are used up`);
  return {
    number: `${SERIES_PREFIX[series]}/${financialYear}/${String(lastNumber).padStart(6, '0')}`,
    financialYear,
  };
}
