import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { InvoiceLine } from '../../src-server/db/schema/invoices.ts';
import { GSTR1_HEADERS } from '../../src-server/services/invoices/export-gstr1.ts';
import { account, buy, type Person } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { readZip } from '../helpers/zip-entries.ts';

/**
 * GET /api/invoices/gstr1/{yyyy-mm}.zip (issue 36, item 13): one organiser's month as GSTR-1's tables, in
 * the GST offline tool's CSVs. The month's documents are stored rows written here by hand (the export
 * only reads stored amounts), and every figure expected below is worked out in the comments.
 *
 * The organiser is registered in Maharashtra (27). November 2026:
 *   INV/26-27/000001  B2B: buyer GSTIN 29AAGCB7383J1Z4, show in Mumbai (intra), 2 × ₹1,180 incl. 18 %:
 *                     taxable 2,36,000 × 100/118 = 2,00,000 p; CGST 18,000 + SGST 18,000; total 2,36,000 p.
 *                     Issued 31 Oct 19:00 UTC = 1 Nov 00:30 IST: it belongs to November, dated 01-Nov-2026.
 *   INV/26-27/000002  B2CL: unregistered, show in Bengaluru (29, inter), 100 × ₹1,200 incl. 18 % = ₹1,20,000:
 *                     taxable 1,20,00,000 × 100/118 = 1,01,69,491.5 → 1,01,69,492 p; IGST 18,30,508 p.
 *                     ₹1,20,000 > ₹1,00,000 and inter-state: B2CL, not B2CS.
 *   INV/26-27/000003  B2CS intra: 1 × ₹1,180 → taxable 1,00,000; CGST 9,000 + SGST 9,000.
 *   INV/26-27/000004  B2CS inter, small: Bengaluru, 1 × ₹2,360 → taxable 2,00,000; IGST 36,000.
 *   INV/26-27/000005  exempt intra, unregistered: Mumbai, 3 × ₹500 → 1,50,000 p exempt.
 *   INV/26-27/000006  exempt inter, unregistered: Bengaluru, 2 × ₹400 → 80,000 p exempt.
 *   INV/26-27/000007  exempt intra, registered: the B2B buyer, Mumbai, 1 × ₹300 → 30,000 p exempt.
 *   CRN/26-27/000001  all of INV 1 (whole: 2,00,000 + 18,000 + 18,000 = 2,36,000 p): CDNR at 18 %.
 *   CRN/26-27/000002  50 % of INV 3: taxable 50,000, CGST 4,500, SGST 4,500, total 59,000 p: nets B2CS.
 *   CRN/26-27/000003  10 % of INV 2 (the B2CL one): taxable round(10,16,949.2) = 10,16,949, IGST
 *                     round(1,83,050.8) = 1,83,051, total 12,00,000 p: CDNUR (type B2CL) at 18 %.
 * Not in the export: another organiser's invoice, and this organiser's invoice of October.
 */

const ORGANISER_STATE = 'Maharashtra';
const ORGANISER_GSTIN = '27AAPFU0939F1ZV';
const BUYER_GSTIN = '29AAGCB7383J1Z4';
const BUYER_NAME = 'Kaveri Events Pvt Ltd';

let t: TestApp;
let organiser: Person;
let otherOrganiser: Person;
let admin: Person;
let bookingId: string;
let eventId: string;

function line(spec: {
  sac?: string;
  qty: number;
  unit: number;
  kind: InvoiceLine['kind'];
  rate: number;
  taxable: number;
  cgst?: number;
  sgst?: number;
  igst?: number;
}): InvoiceLine {
  const cgst = spec.cgst ?? 0;
  const sgst = spec.sgst ?? 0;
  const igst = spec.igst ?? 0;
  return {
    description: 'Jazz night: Gold',
    sac: spec.sac ?? '9996',
    quantity: spec.qty,
    unitPricePaise: spec.unit,
    personsPerTicket: 1,
    kind: spec.kind,
    taxRatePercent: spec.rate,
    taxableValuePaise: spec.taxable,
    cgstPaise: cgst,
    sgstPaise: sgst,
    igstPaise: igst,
    totalPaise: spec.taxable + cgst + sgst + igst,
  };
}

async function insertInvoice(
  number: string,
  issuedAt: string,
  placeOfSupply: string,
  lines: InvoiceLine[],
  buyer: { gstin?: string; issuer?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const sum = (f: (l: InvoiceLine) => number) => lines.reduce((a, l) => a + f(l), 0);
  const { invoices } = tablesOf(t.deps.db);
  await t.deps.db.insert(invoices).values({
    id,
    bookingId,
    kind: 'admission',
    documentType: 'tax_invoice',
    issuer: buyer.issuer ?? organiser.userId,
    eventId,
    number,
    financialYear: '26-27',
    issuedAt,
    supplierName: 'Tala Collective LLP',
    supplierAddress: '12 Hill Road, Mumbai',
    supplierState: ORGANISER_STATE,
    supplierGstin: ORGANISER_GSTIN,
    buyerName: 'Asha Verma',
    buyerState: buyer.gstin ? 'Karnataka' : 'Maharashtra',
    buyerGstin: buyer.gstin ?? null,
    buyerLegalName: buyer.gstin ? BUYER_NAME : null,
    placeOfSupply,
    taxInclusive: true,
    lines,
    taxableValuePaise: sum((l) => l.taxableValuePaise),
    cgstPaise: sum((l) => l.cgstPaise),
    sgstPaise: sum((l) => l.sgstPaise),
    igstPaise: sum((l) => l.igstPaise),
    totalPaise: sum((l) => l.totalPaise),
    notes: [],
  });
  return id;
}

async function insertCreditNote(
  invoiceId: string,
  number: string,
  issuedAt: string,
  a: { taxable: number; cgst?: number; sgst?: number; igst?: number },
) {
  const cgst = a.cgst ?? 0;
  const sgst = a.sgst ?? 0;
  const igst = a.igst ?? 0;
  const { creditNotes } = tablesOf(t.deps.db);
  await t.deps.db.insert(creditNotes).values({
    id: randomUUID(),
    invoiceId,
    issuer: organiser.userId,
    number,
    financialYear: '26-27',
    issuedAt,
    reason: 'event_cancelled',
    taxableValuePaise: a.taxable,
    cgstPaise: cgst,
    sgstPaise: sgst,
    igstPaise: igst,
    totalPaise: a.taxable + cgst + sgst + igst,
  });
}

const NOV = '2026-11-05T06:30:00.000Z'; // 05-Nov-2026 12:00 IST

beforeAll(async () => {
  t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
  organiser = await account(t, 'organiser');
  otherOrganiser = await account(t, 'organiser');
  admin = await account(t, 'admin');
  // A real booking and event for the rows to refer to (no profile: it issues no invoice of its own).
  const ev = await createTicketedEventOn(t.deps.db);
  eventId = ev.eventId;
  bookingId = (await buy(t, ev, 1)).bookingId;

  const inv1 = await insertInvoice(
    'INV/26-27/000001',
    '2026-10-31T19:00:00.000Z',
    'Maharashtra',
    [line({ qty: 2, unit: 118_000, kind: 'intra', rate: 18, taxable: 200_000, cgst: 18_000, sgst: 18_000 })],
    { gstin: BUYER_GSTIN },
  );
  const inv2 = await insertInvoice('INV/26-27/000002', NOV, 'Karnataka', [
    line({ qty: 100, unit: 120_000, kind: 'inter', rate: 18, taxable: 10_169_492, igst: 1_830_508 }),
  ]);
  const inv3 = await insertInvoice('INV/26-27/000003', NOV, 'Maharashtra', [
    line({ qty: 1, unit: 118_000, kind: 'intra', rate: 18, taxable: 100_000, cgst: 9_000, sgst: 9_000 }),
  ]);
  await insertInvoice('INV/26-27/000004', NOV, 'Karnataka', [
    line({ qty: 1, unit: 236_000, kind: 'inter', rate: 18, taxable: 200_000, igst: 36_000 }),
  ]);
  await insertInvoice('INV/26-27/000005', NOV, 'Maharashtra', [
    line({ qty: 3, unit: 50_000, kind: 'exempt', rate: 0, taxable: 150_000 }),
  ]);
  await insertInvoice('INV/26-27/000006', NOV, 'Karnataka', [
    line({ qty: 2, unit: 40_000, kind: 'exempt', rate: 0, taxable: 80_000 }),
  ]);
  await insertInvoice(
    'INV/26-27/000007',
    NOV,
    'Maharashtra',
    [line({ qty: 1, unit: 30_000, kind: 'exempt', rate: 0, taxable: 30_000 })],
    { gstin: BUYER_GSTIN },
  );
  await insertCreditNote(inv1, 'CRN/26-27/000001', '2026-11-20T06:30:00.000Z', {
    taxable: 200_000,
    cgst: 18_000,
    sgst: 18_000,
  });
  await insertCreditNote(inv3, 'CRN/26-27/000002', '2026-11-20T06:30:00.000Z', {
    taxable: 50_000,
    cgst: 4_500,
    sgst: 4_500,
  });
  await insertCreditNote(inv2, 'CRN/26-27/000003', '2026-11-21T06:30:00.000Z', {
    taxable: 1_016_949,
    igst: 183_051,
  });
  // Not November's: October (31 Oct 18:00 UTC = 23:30 IST), and another organiser's.
  await insertInvoice('INV/26-27/000099', '2026-10-31T18:00:00.000Z', 'Maharashtra', [
    line({ qty: 1, unit: 118_000, kind: 'intra', rate: 18, taxable: 100_000, cgst: 9_000, sgst: 9_000 }),
  ]);
  await insertInvoice(
    'INV/26-27/000001',
    NOV,
    'Maharashtra',
    [line({ qty: 1, unit: 118_000, kind: 'intra', rate: 18, taxable: 100_000, cgst: 9_000, sgst: 9_000 })],
    { issuer: otherOrganiser.userId },
  );
});
afterAll(async () => {
  await t.close();
});

async function download(cookie: string, month = '2026-11') {
  const res = await t.request(`/api/invoices/gstr1/${month}.zip`, { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="jalsa-gstr1-${month}.zip"`);
  const files = readZip(new Uint8Array(await res.arrayBuffer()));
  return Object.fromEntries(
    [...files].map(([name, data]) => [name, data.toString('utf8').split('\r\n').slice(0, -1)]),
  ) as Record<string, string[]>;
}

describe('GSTR-1 export of one organiser’s month', () => {
  it('is a ZIP of the offline tool’s nine CSVs, each with its template’s header row, spelt out', async () => {
    const files = await download(organiser.cookie);
    // Table 12 has been two tabs since May 2025, HSN(B2B) and HSN(B2C): no single hsn.csv any more.
    expect(Object.keys(files).sort()).toEqual(
      [
        'b2b.csv',
        'b2cl.csv',
        'b2cs.csv',
        'cdnr.csv',
        'cdnur.csv',
        'docs.csv',
        'exemp.csv',
        'hsn(b2b).csv',
        'hsn(b2c).csv',
      ].sort(),
    );
    const hsnHeader =
      'HSN,Description,UQC,Total Quantity,Total Value,Rate,Taxable Value,Integrated Tax Amount,Central Tax Amount,State/UT Tax Amount,Cess Amount';
    // Each header as the offline tool's templates spell it, written out here (not read from GSTR1_HEADERS).
    expect(Object.fromEntries(Object.entries(files).map(([name, rows]) => [name, rows[0]]))).toEqual({
      'b2b.csv':
        'GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable Value,Cess Amount',
      'b2cl.csv':
        'Invoice Number,Invoice date,Invoice Value,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN',
      'b2cs.csv':
        'Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN',
      'cdnr.csv':
        'GSTIN/UIN of Recipient,Receiver Name,Note Number,Note Date,Note Type,Place Of Supply,Reverse Charge,Note Supply Type,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount',
      'cdnur.csv':
        'UR Type,Note Number,Note Date,Note Type,Place Of Supply,Note Value,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount',
      'exemp.csv':
        'Description,Nil Rated Supplies,Exempted(other than nil rated/non GST supply),Non-GST Supplies',
      'hsn(b2b).csv': hsnHeader,
      'hsn(b2c).csv': hsnHeader,
      'docs.csv': 'Nature of Document,Sr. No. From,Sr. No. To,Total Number,Cancelled',
    });
  });

  it('b2b: one row per invoice and rate with the recipient’s GSTIN (the exempt B2B line goes to exemp)', async () => {
    const { 'b2b.csv': b2b } = await download(organiser.cookie);
    expect(b2b!.slice(1)).toEqual([
      `${BUYER_GSTIN},${BUYER_NAME},INV/26-27/000001,01-Nov-2026,2360.00,27-Maharashtra,N,,Regular B2B,,18,2000.00,0.00`,
    ]);
  });

  it('b2cl: the ₹1,20,000 inter-state invoice to an unregistered buyer, on its own row', async () => {
    const { 'b2cl.csv': b2cl } = await download(organiser.cookie);
    // Invoice value 1,20,00,000 p; taxable 1,01,69,492 p = 101694.92.
    expect(b2cl!.slice(1)).toEqual([
      'INV/26-27/000002,05-Nov-2026,120000.00,29-Karnataka,,18,101694.92,0.00,',
    ]);
  });

  it('b2cl starts above ₹1,00,000: exactly ₹1,00,000 inter-state stays in b2cs (December)', async () => {
    const DEC = '2026-12-10T06:30:00.000Z';
    // ₹1,00,000 incl. 18 %: taxable 1,00,00,000 × 100/118 = 84,74,576.27 → 84,74,576 p; IGST 15,25,424 p.
    await insertInvoice('INV/26-27/000100', DEC, 'Karnataka', [
      line({ qty: 1, unit: 10_000_000, kind: 'inter', rate: 18, taxable: 8_474_576, igst: 1_525_424 }),
    ]);
    // ₹1,00,001: taxable 1,00,00,100 × 100/118 = 84,74,661.02 → 84,74,661 p; IGST 15,25,439 p.
    await insertInvoice('INV/26-27/000101', DEC, 'Karnataka', [
      line({ qty: 1, unit: 10_000_100, kind: 'inter', rate: 18, taxable: 8_474_661, igst: 1_525_439 }),
    ]);
    const dec = await download(organiser.cookie, '2026-12');
    expect(dec['b2cl.csv']!.slice(1)).toEqual([
      'INV/26-27/000101,10-Dec-2026,100001.00,29-Karnataka,,18,84746.61,0.00,',
    ]);
    expect(dec['b2cs.csv']!.slice(1)).toEqual(['OE,29-Karnataka,,18,84745.76,0.00,']);
  });

  it('b2cs: the rest of B2C by place of supply and rate, net of their credit notes', async () => {
    const { 'b2cs.csv': b2cs } = await download(organiser.cookie);
    // 27 at 18 %: INV 3's 1,00,000 − CRN 2's 50,000 = 50,000 p. 29 at 18 %: INV 4's 2,00,000 p.
    expect(b2cs!.slice(1)).toEqual([
      'OE,27-Maharashtra,,18,500.00,0.00,',
      'OE,29-Karnataka,,18,2000.00,0.00,',
    ]);
  });

  it('cdnr and cdnur: credit notes with their rate, by the recipient’s registration', async () => {
    const files = await download(organiser.cookie);
    expect(files['cdnr.csv']!.slice(1)).toEqual([
      `${BUYER_GSTIN},${BUYER_NAME},CRN/26-27/000001,20-Nov-2026,C,27-Maharashtra,N,Regular B2B,2360.00,,18,2000.00,0.00`,
    ]);
    // 10 % of the B2CL invoice: note value 12,00,000 p, taxable 10,16,949 p.
    expect(files['cdnur.csv']!.slice(1)).toEqual([
      'B2CL,CRN/26-27/000003,21-Nov-2026,C,29-Karnataka,12000.00,,18,10169.49,0.00',
    ]);
  });

  it('exemp: exempt supplies split inter/intra-state and registered/unregistered', async () => {
    const { 'exemp.csv': exemp } = await download(organiser.cookie);
    expect(exemp!.slice(1)).toEqual([
      'Inter-State supplies to registered persons,0.00,0.00,0.00',
      // INV 7: 1 × ₹300 to the registered buyer, show in Mumbai.
      'Intra-State supplies to registered persons,0.00,300.00,0.00',
      // INV 6: 2 × ₹400, Bengaluru.
      'Inter-State supplies to unregistered persons,0.00,800.00,0.00',
      // INV 5: 3 × ₹500, Mumbai.
      'Intra-State supplies to unregistered persons,0.00,1500.00,0.00',
    ]);
  });

  it('hsn(b2b) and hsn(b2c): table 12 per 6-digit SAC and rate, each credit note in its invoice’s table', async () => {
    const files = await download(organiser.cookie);
    const description = 'Other recreation and amusement services n.e.c.';
    // The rows above were stored with the 4-digit heading 9996 (as invoices were before they had a code
    // per admission kind): the lines do not say their kind, so they are reported as group 99969's
    // catch-all 999699, as the e-invoices send them.
    // B2B (INV 1, INV 7 and INV 1's credit note):
    expect(files['hsn(b2b).csv']!.slice(1)).toEqual([
      // Rate 0: INV 7, 1 × ₹300 = 30,000 p.
      `999699,${description},NA,1,300.00,0,300.00,0.00,0.00,0.00,0.00`,
      // Rate 18: INV 1's 2 tickets, 2,00,000 + 18,000 + 18,000, all given back by CRN 1 (whole): 0 and 0.
      `999699,${description},NA,0,0.00,18,0.00,0.00,0.00,0.00,0.00`,
    ]);
    expect(files['hsn(b2c).csv']!.slice(1)).toEqual([
      // Rate 0: quantity 3 + 2 = 5; taxable 1,50,000 + 80,000 = 2,30,000 p.
      `999699,${description},NA,5,2300.00,0,2300.00,0.00,0.00,0.00,0.00`,
      // Rate 18: taxable 1,01,69,492 + 1,00,000 + 2,00,000 = 1,04,69,492
      //   − credits 50,000 (CRN 2) + 10,16,949 (CRN 3) = 10,66,949 → 94,02,543 p;
      // IGST 18,30,508 + 36,000 − 1,83,051 = 16,83,457; CGST 9,000 − 4,500 = 4,500 = SGST;
      // value 94,02,543 + 16,83,457 + 4,500 + 4,500 = 1,10,95,000 p;
      // quantity 100 + 1 + 1 = 102 (part credits return no quantity).
      `999699,${description},NA,102,110950.00,18,94025.43,16834.57,45.00,45.00,0.00`,
    ]);
  });

  it('reports lines stored with 999692 (gambling and betting, omitted in 2023) or 9996 as 999699', async () => {
    // March 2027: INV/26-27/000300 stored with 999692, INV/26-27/000301 with 9996 (both as issued before
    // a code per admission kind), each 1 × ₹1,180 incl. 18 % intra: taxable 1,00,000, CGST 9,000 + SGST 9,000.
    const MAR = '2027-03-10T06:30:00.000Z';
    for (const [number, sac] of [
      ['INV/26-27/000300', '999692'],
      ['INV/26-27/000301', '9996'],
    ] as const) {
      await insertInvoice(number, MAR, 'Maharashtra', [
        line({
          sac,
          qty: 1,
          unit: 118_000,
          kind: 'intra',
          rate: 18,
          taxable: 100_000,
          cgst: 9_000,
          sgst: 9_000,
        }),
      ]);
    }
    const files = await download(organiser.cookie, '2027-03');
    // Together: quantity 2, value 2,36,000 p, taxable 2,00,000, CGST = SGST = 18,000.
    expect(files['hsn(b2c).csv']!.slice(1)).toEqual([
      '999699,Other recreation and amusement services n.e.c.,NA,2,2360.00,18,2000.00,0.00,180.00,180.00,0.00',
    ]);
    for (const [name, rows] of Object.entries(files)) expect(rows.join('\n'), name).not.toContain('999692');
  });

  it('docs: table 13, each series’ first and last number, count and cancelled', async () => {
    const { 'docs.csv': docs } = await download(organiser.cookie);
    expect(docs!.slice(1)).toEqual([
      'Invoices for outward supply,INV/26-27/000001,INV/26-27/000007,7,0',
      'Credit Note,CRN/26-27/000001,CRN/26-27/000003,3,0',
    ]);
  });

  it('another organiser sees only their own month; an empty month has headers only', async () => {
    const other = await download(otherOrganiser.cookie);
    expect(other['docs.csv']!.slice(1)).toEqual([
      'Invoices for outward supply,INV/26-27/000001,INV/26-27/000001,1,0',
    ]);
    expect(other['b2cs.csv']!.slice(1)).toEqual(['OE,27-Maharashtra,,18,1000.00,0.00,']);
    const empty = await download(organiser.cookie, '2027-01');
    expect(empty['b2b.csv']).toEqual([GSTR1_HEADERS.b2b.join(',')]);
    // The admin's own (issuer = their account) is empty too: the platform's documents have their own route.
    const adminOwn = await download(admin.cookie);
    expect(adminOwn['docs.csv']).toEqual([GSTR1_HEADERS.docs.join(',')]);
  });

  it('refuses signed-out callers, buyers and bad months', async () => {
    expect((await t.request('/api/invoices/gstr1/2026-11.zip')).status).toBe(401);
    const buyer = await account(t);
    expect(
      (await t.request('/api/invoices/gstr1/2026-11.zip', { headers: { cookie: buyer.cookie } })).status,
    ).toBe(403);
    for (const file of ['2026-13.zip', '2026-11.csv', 'x.zip']) {
      const res = await t.request(`/api/invoices/gstr1/${file}`, { headers: { cookie: organiser.cookie } });
      expect(res.status, file).toBe(400);
    }
  });

  it('the monthly CSV: a credit note’s rows carry the rates of the supply it credits, one row a rate', async () => {
    // February 2027: INV/26-27/000200 (intra, unregistered) has two rates:
    //   1 × ₹1,180 at 18 %: taxable 1,00,000, CGST 9,000 + SGST 9,000;
    //   1 × ₹525 at 5 %: taxable 50,000, CGST 1,250 + SGST 1,250; invoice 1,70,500 p.
    // CRN/26-27/000200 credits half: taxable 75,000, CGST 5,125, SGST 5,125, total 85,250 p, spread by head:
    //   taxable 75,000 × 1,00,000/1,50,000 = 50,000 at 18 %, the rest 25,000 at 5 %;
    //   CGST 5,125 × 9,000/10,250 = 4,500 at 18 %, the rest 625 at 5 % (SGST the same).
    const FEB = '2027-02-10T06:30:00.000Z';
    const inv = await insertInvoice('INV/26-27/000200', FEB, 'Maharashtra', [
      line({ qty: 1, unit: 118_000, kind: 'intra', rate: 18, taxable: 100_000, cgst: 9_000, sgst: 9_000 }),
      line({ qty: 1, unit: 52_500, kind: 'intra', rate: 5, taxable: 50_000, cgst: 1_250, sgst: 1_250 }),
    ]);
    await insertCreditNote(inv, 'CRN/26-27/000200', FEB, { taxable: 75_000, cgst: 5_125, sgst: 5_125 });
    const res = await t.request('/api/invoices/month/2027-02.csv', { headers: { cookie: organiser.cookie } });
    const notes = (await res.text()).split('\r\n').filter((r) => r.startsWith('Credit note'));
    expect(notes).toEqual([
      // 500.00 + 45.00 + 45.00 = 590.00
      'Credit note,CRN/26-27/000200,2027-02-10,,,27-Maharashtra,18,500.00,0.00,45.00,45.00,0.00,590.00,INV/26-27/000200',
      // 250.00 + 6.25 + 6.25 = 262.50; with the row above, 852.50: the note's total.
      'Credit note,CRN/26-27/000200,2027-02-10,,,27-Maharashtra,5,250.00,0.00,6.25,6.25,0.00,262.50,INV/26-27/000200',
    ]);
  });

  it('keeps the monthly CSV as it was', async () => {
    const res = await t.request('/api/invoices/month/2026-11.csv', { headers: { cookie: organiser.cookie } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('B2B,INV/26-27/000001,2026-11-01');
    expect(text).toContain('Exempt');
  });
});

describe('a bill of supply issued through the real path', () => {
  /**
   * A registered Mumbai organiser's concert in Mumbai (the test clock: 21 Nov 2026), tax-inclusive:
   *   Lawn ₹499 ≤ ₹500 a person: exempt (entry 81), so a wholly exempt sale is a bill of supply (BOS series).
   *     Booking 1: 1 × ₹499 → BOS/26-27/000001, 49,900 p.
   *     Booking 2: 2 × ₹499 → BOS/26-27/000002, 99,800 p; then cancelled by the organiser → CRN/26-27/000001
   *       for all of it (credited, not cancelled: the document stays issued).
   *   Gold ₹1,180 at 18 %: 1 × → INV/26-27/000001: taxable 1,18,000 × 100/118 = 1,00,000 p; CGST 9,000 + SGST 9,000.
   */
  it('docs.csv gives the BOS series its own row; exemp.csv and hsn(b2c) count it, net of its credit note', async () => {
    const seller = await account(t, 'organiser');
    await saveTaxProfile(t, seller.userId);
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [
        { name: 'Lawn', pricePaise: 49_900, totalTickets: 20 },
        { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
      ],
    });
    const { events, invoices } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ ownerId: seller.userId }).where(eq(events.id, ev.eventId));
    const lawn = { ...ev, ticketTypeIds: [ev.ticketTypeIds[0]!] };
    await buy(t, lawn, 1);
    const second = await buy(t, lawn, 2);
    await buy(t, { ...ev, ticketTypeIds: [ev.ticketTypeIds[1]!] }, 1);
    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId: second.bookingId },
      { cookie: seller.cookie },
    );
    expect(cancelled.status).toBe(200);
    const [bill] = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, second.bookingId));
    expect(bill).toMatchObject({ documentType: 'bill_of_supply', number: 'BOS/26-27/000002' });

    const files = await download(seller.cookie);
    expect(files['docs.csv']!.slice(1)).toEqual([
      'Invoices for outward supply,BOS/26-27/000001,BOS/26-27/000002,2,0',
      'Invoices for outward supply,INV/26-27/000001,INV/26-27/000001,1,0',
      'Credit Note,CRN/26-27/000001,CRN/26-27/000001,1,0',
    ]);
    // Intra-state (Maharashtra to Maharashtra), unregistered: 49,900 + 99,800 − 99,800 = 49,900 p.
    expect(files['exemp.csv']!.slice(1)).toEqual([
      'Inter-State supplies to registered persons,0.00,0.00,0.00',
      'Intra-State supplies to registered persons,0.00,0.00,0.00',
      'Inter-State supplies to unregistered persons,0.00,0.00,0.00',
      'Intra-State supplies to unregistered persons,0.00,499.00,0.00',
    ]);
    // New lines store the 6-digit SAC of the event's kind (a concert: 999622), which the summary reports.
    expect(bill!.lines.map((l) => l.sac)).toEqual(['999622']);
    expect(files['hsn(b2b).csv']!.slice(1)).toEqual([]);
    expect(files['hsn(b2c).csv']!.slice(1)).toEqual([
      // Rate 0: quantity 1 + 2 − 2 (the whole credit returns it) = 1; 49,900 p.
      '999622,Performing arts event production and presentation services,NA,1,499.00,0,499.00,0.00,0.00,0.00,0.00',
      // Rate 18: Gold, 1; value 1,18,000 p; taxable 1,00,000; CGST = SGST = 9,000.
      '999622,Performing arts event production and presentation services,NA,1,1180.00,18,1000.00,0.00,90.00,90.00,0.00',
    ]);
    expect(files['b2cs.csv']!.slice(1)).toEqual(['OE,27-Maharashtra,,18,1000.00,0.00,']);
  });
});
