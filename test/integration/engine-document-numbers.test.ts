import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/client.ts';
import { type PgDb, pgWriteTransaction } from '../../src-server/db/engine/postgres.ts';
import { runSync } from '../../src-server/db/engine/steps.ts';
import { writeTransaction } from '../../src-server/db/write-transaction.ts';
import { documentNumberSteps } from '../../src-server/services/invoices/document-numbers.ts';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/test-postgres.ts';

// ADR 0045: invoice numbering, written once, on both engines: consecutive per issuer, series and
// financial year with no gaps and no duplicates under concurrency, and a number given back when the
// document it numbered rolls back.

interface Engine {
  /** Runs a transition in one write transaction; `fail` rolls it back after the number is taken. */
  number: (issuer: string, now: Date, fail?: boolean) => Promise<string>;
  close: () => Promise<void>;
}

const FAILED = new Error('the document failed after its number was taken');
const serverUrl = testPostgresUrl('engine-document-numbers.test.ts');
const engines: [string, () => Promise<Engine>][] = [
  [
    'SQLite',
    async () => {
      const { db, close } = openDatabase(':memory:');
      return {
        number: (issuer, now, fail) =>
          writeTransaction(db, (tx) => {
            const { number } = runSync(documentNumberSteps(tx, issuer, 'invoice', now));
            if (fail) throw FAILED;
            return number;
          }),
        close: async () => close(),
      };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const fresh = await freshPostgresDatabase(serverUrl, { poolSize: 10 });
      const db: PgDb = fresh.db;
      return {
        number: (issuer, now, fail) =>
          pgWriteTransaction(db, function* (tx) {
            const { number } = yield* documentNumberSteps(tx, issuer, 'invoice', now);
            if (fail) throw FAILED;
            return number;
          }),
        close: fresh.drop,
      };
    },
  ]);
}

const MARCH_31_IST = new Date('2027-03-31T18:29:59.000Z'); // 23:59:59 IST, financial year 26-27
const APRIL_1_IST = new Date('2027-03-31T18:30:00.000Z'); // 00:00 IST on 1 April: 27-28 begins

describe.each(engines)('invoice numbers, written once, on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  it('30 documents at once for one organiser are numbered 1 to 30: no gap, no duplicate', async () => {
    const numbers = await Promise.all(
      Array.from({ length: 30 }, () => engine.number('organiser-a', MARCH_31_IST)),
    );
    expect([...numbers].sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => `INV/26-27/${String(i + 1).padStart(6, '0')}`),
    );
  });

  it('a document that rolls back gives its number back; another organiser has a series of its own', async () => {
    await expect(engine.number('organiser-b', MARCH_31_IST, true)).rejects.toBe(FAILED);
    expect(await engine.number('organiser-b', MARCH_31_IST)).toBe('INV/26-27/000001');
    expect(await engine.number('organiser-a', MARCH_31_IST)).toBe('INV/26-27/000031');
  });

  it('a new financial year starts again at 1 (1 April, IST)', async () => {
    expect(await engine.number('organiser-a', APRIL_1_IST)).toBe('INV/27-28/000001');
  });
});
