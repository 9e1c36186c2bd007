import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { GSTR1_HEADERS } from '../../src-server/services/invoices/export-gstr1.ts';
import { issueCreditNotesSteps } from '../../src-server/services/invoices/issue-credit-note.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { account, buy, type Person } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { readZip } from '../helpers/zip-entries.ts';

/**
 * The operator's export of the platform's own documents (issue 36, item 14): the convenience-fee
 * invoices (PLF series) and their credit notes, as the monthly CSV and as GSTR-1's tables, for admins.
 * Before this the admin's monthly CSV asked for documents issued by the admin's own account: none.
 *
 * The platform is registered in Karnataka (29); the organiser in Maharashtra; fee 5 %, its GST 18 %.
 * Test clock: 21 Nov 2026 (IST).
 *   Booking A: 1 × ₹1,180, buyer unregistered in Maharashtra → PLF/26-27/000001: fee 5 % of ₹1,180 =
 *     ₹59 = 5,900 p; IGST 18 % = 1,062 p (Karnataka → Maharashtra); total 6,962 p. B2CS 27 at 18 %.
 *   Booking B: 2 × ₹1,180, buyer with GSTIN 27AAPFU0939F1ZV → PLF/26-27/000002: fee 5 % of ₹2,360 =
 *     11,800 p; IGST 2,124 p; total 13,924 p. B2B.
 *   Booking B cancelled by the organiser: the platform's CRN/26-27/000001 credits all of PLF 2 → CDNR.
 */

const PLATFORM_GST = {
  PLATFORM_GSTIN: '29AAGCB7383J1Z4',
  PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
  PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
};

let t: TestApp;
let admin: Person;
let organiser: Person;

beforeAll(async () => {
  t = await createTestAppOn(testEngine(), PLATFORM_GST);
  admin = await account(t, 'admin');
  organiser = await account(t, 'organiser');
  await saveOrganiserProfile(
    t.deps.db,
    platformGstOf(t.deps.env),
    organiser.userId,
    organiserProfileSchema.parse({
      legalName: 'Tala Collective LLP',
      address: '12 Hill Road, Mumbai',
      state: 'Maharashtra',
      gstin: '27AAPFU0939F1ZV',
    }),
    t.clock.now(),
  );
  const ev = await createTicketedEventOn(t.deps.db, {
    types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 10 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  await buy(t, ev, 1);
  const b = await buy(t, ev, 2, {
    ticketDetails: {
      ...DETAILS,
      buyerGstin: '27AAPFU0939F1ZV',
      buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
      buyerAddress: '12 Hill Road, Bandra, Mumbai 400050',
    },
  });
  await runnerFor(t.deps.db).write((tx) =>
    issueCreditNotesSteps(tx as WriteTx, b.bookingId, 'event_cancelled', t.clock.now()),
  );
});
afterAll(async () => {
  await t.close();
});

async function gstr1(cookie: string) {
  const res = await t.request('/api/invoices/platform/gstr1/2026-11.zip', { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toBe(
    'attachment; filename="jalsa-platform-gstr1-2026-11.zip"',
  );
  const files = readZip(new Uint8Array(await res.arrayBuffer()));
  return (name: string) => files.get(name)!.toString('utf8').split('\r\n').slice(1, -1);
}

describe('the platform’s own invoices, for the operator', () => {
  it('GSTR-1: fee invoices in b2b / b2cs, the credit note in cdnr, SAC 998599 in hsn(b2b)/hsn(b2c), the PLF series in docs', async () => {
    const table = await gstr1(admin.cookie);
    expect(table('b2b.csv')).toEqual([
      '27AAPFU0939F1ZV,Asha Verma Consulting Pvt Ltd,PLF/26-27/000002,21-Nov-2026,139.24,27-Maharashtra,N,,Regular B2B,,18,118.00,0.00',
    ]);
    expect(table('b2cs.csv')).toEqual(['OE,27-Maharashtra,,18,59.00,0.00,']);
    expect(table('b2cl.csv')).toEqual([]);
    expect(table('cdnr.csv')).toEqual([
      '27AAPFU0939F1ZV,Asha Verma Consulting Pvt Ltd,CRN/26-27/000001,21-Nov-2026,C,27-Maharashtra,N,Regular B2B,139.24,,18,118.00,0.00',
    ]);
    // Table 12's B2B tab: PLF 2 (11,800 taxable, IGST 2,124, one fee line) less its whole credit note = 0.
    expect(table('hsn(b2b).csv')).toEqual([
      '998599,Convenience fee (support services),NA,0,0.00,18,0.00,0.00,0.00,0.00,0.00',
    ]);
    // B2C tab: PLF 1, taxable 5,900, IGST 1,062, value 6,962 p, one fee line.
    expect(table('hsn(b2c).csv')).toEqual([
      '998599,Convenience fee (support services),NA,1,69.62,18,59.00,10.62,0.00,0.00,0.00',
    ]);
    expect(table('docs.csv')).toEqual([
      'Invoices for outward supply,PLF/26-27/000001,PLF/26-27/000002,2,0',
      'Credit Note,CRN/26-27/000001,CRN/26-27/000001,1,0',
    ]);
  });

  it('the monthly CSV lists the fee invoices too (the admin’s own was empty)', async () => {
    const res = await t.request('/api/invoices/platform/month/2026-11.csv', {
      headers: { cookie: admin.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="jalsa-platform-invoices-2026-11.csv"',
    );
    const rows = (await res.text())
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(1, -1);
    expect(rows).toEqual([
      'B2B,PLF/26-27/000002,2026-11-21,27AAPFU0939F1ZV,Asha Verma Consulting Pvt Ltd,27-Maharashtra,18,118.00,21.24,0.00,0.00,0.00,139.24,',
      'B2C,,,,,27-Maharashtra,18,59.00,10.62,0.00,0.00,0.00,69.62,',
      // The credit note at the rate of the fee it credits (18 %), as its invoice's row.
      'Credit note,CRN/26-27/000001,2026-11-21,27AAPFU0939F1ZV,Asha Verma Consulting Pvt Ltd,27-Maharashtra,18,118.00,21.24,0.00,0.00,0.00,139.24,PLF/26-27/000002',
    ]);
    const own = await t.request('/api/invoices/month/2026-11.csv', { headers: { cookie: admin.cookie } });
    expect((await own.text()).split('\r\n').length, 'the admin issues nothing in their own name').toBe(2);
  });

  it('is for admins only: organisers (even the one whose booking it was) and buyers 403, signed out 401', async () => {
    const buyer = await account(t);
    for (const path of [
      '/api/invoices/platform/gstr1/2026-11.zip',
      '/api/invoices/platform/month/2026-11.csv',
    ]) {
      expect((await t.request(path)).status, path).toBe(401);
      for (const who of [organiser, buyer]) {
        const res = await t.request(path, { headers: { cookie: who.cookie } });
        expect(res.status, path).toBe(403);
      }
    }
    // An organiser's own GSTR-1 never holds the platform's fee invoices.
    const own = await t.request('/api/invoices/gstr1/2026-11.zip', { headers: { cookie: organiser.cookie } });
    const docs = readZip(new Uint8Array(await own.arrayBuffer()))
      .get('docs.csv')!
      .toString('utf8');
    expect(docs).not.toContain('PLF');
    expect(docs.startsWith(GSTR1_HEADERS.docs.join(','))).toBe(true);
  });
});
