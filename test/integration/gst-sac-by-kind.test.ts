import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { registerDueEInvoices } from '../../src-server/services/invoices/register-e-invoices.ts';
import { account, buy, type Person } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { readZip } from '../helpers/zip-entries.ts';
import { mswServer } from '../mocks/server.ts';

/**
 * The SAC of admission follows the event's admission kind (issue 36): 999692 (gambling and betting,
 * omitted from the Scheme of Classification of Services w.e.f. 20-10-2023) is never issued or reported.
 *
 * A registered Mumbai organiser (27AAPFU0939F1ZV) under e-invoicing sells Gold at ₹1,180 incl. 18 % at
 * three events in Mumbai: a concert (category concerts → kind concert → 999622), a cricket match
 * (sports → sporting_event → 999651) and a workshop (workshops → other → 999699). At each, one ticket to
 * a buyer with GSTIN 29AAGCB7383J1Z4 (B2B) and one to a buyer without (B2C). Each line, by hand:
 * 1 × ₹1,180: taxable 1,18,000 × 100/118 = 1,00,000 p; tax 18,000 p, intra-state CGST 9,000 + SGST 9,000.
 * The test clock is 21 Nov 2026 IST: the GSTR-1 month is 2026-11.
 */

const IRP = 'https://irp.example.test';
const B2B_BUYER = {
  ...DETAILS,
  buyerGstin: '29AAGCB7383J1Z4',
  buyerLegalName: 'Kaveri Events Pvt Ltd',
  buyerAddress: '80 Feet Road, Indiranagar, Bengaluru 560038',
};

const EVENTS = [
  { category: 'concerts', sac: '999622', name: 'Jazz night' },
  { category: 'sports', sac: '999651', name: 'Cricket final' },
  { category: 'workshops', sac: '999699', name: 'Pottery workshop' },
] as const;

let t: TestApp;
let organiser: Person;
const sold: {
  sac: string;
  b2b: { bookingId: string; buyer: Person };
  b2c: { bookingId: string; buyer: Person };
}[] = [];

beforeAll(async () => {
  t = await createTestAppOn(testEngine(), {
    SEED_DEMO_DATA: 'false',
    EINVOICE_IRP_URL: IRP,
    EINVOICE_IRP_TOKEN: 'gsp-token-1',
  });
  organiser = await account(t, 'organiser');
  await saveTaxProfile(t, organiser.userId);
  const res = await callProcedure(t, 'mutation', 'invoices.setEInvoicing', { applies: true }, organiser);
  expect(res.status).toBe(200);
  const { events } = tablesOf(t.deps.db);
  for (const spec of EVENTS) {
    const ev: TicketedEvent = await createTicketedEventOn(t.deps.db, {
      name: spec.name,
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    await t.deps.db
      .update(events)
      .set({ ownerId: organiser.userId, category: spec.category })
      .where(eq(events.id, ev.eventId));
    sold.push({
      sac: spec.sac,
      b2b: await buy(t, ev, 1, { ticketDetails: B2B_BUYER }),
      b2c: await buy(t, ev, 1),
    });
  }
});
afterAll(async () => {
  await t.close();
});

async function admissionInvoiceOf(bookingId: string) {
  const { invoices } = tablesOf(t.deps.db);
  const rows = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId));
  return rows.find((r) => r.kind === 'admission')!;
}

describe('the SAC of admission by the event’s kind', () => {
  it('is stored on each invoice line and printed on the PDF: concert 999622, sport 999651, workshop 999699', async () => {
    for (const { sac, b2b, b2c } of sold) {
      for (const { bookingId, buyer } of [b2b, b2c]) {
        const invoice = await admissionInvoiceOf(bookingId);
        expect(invoice.lines.map((l) => l.sac)).toEqual([sac]);
        const pdf = await t.request(`/api/invoices/${invoice.id}.pdf`, { headers: { cookie: buyer.cookie } });
        expect(pdf.status).toBe(200);
        const text = pdfPageText(Buffer.from(await pdf.arrayBuffer()));
        expect(text).toContain(`(SAC ${sac}): 1 x Rs. 1,180.00`);
        expect(text).not.toContain('999692');
      }
    }
  });

  it('is the e-invoice’s HsnCd', async () => {
    const sent: string[] = [];
    mswServer.use(
      http.post(`${IRP}/eicore/v1.03/Invoice`, async ({ request }) => {
        sent.push(await request.text());
        return HttpResponse.json({ Status: 0, ErrorDetails: [{ ErrorCode: '9999', ErrorMessage: 'test' }] });
      }),
    );
    expect(await registerDueEInvoices(t.deps)).toBe(3);
    const items = sent.map((body) => JSON.parse(body) as { DocDtls: { No: string }; ItemList: object[] });
    const byNumber = new Map(items.map((p) => [p.DocDtls.No, p.ItemList]));
    for (const { sac, b2b } of sold) {
      const invoice = await admissionInvoiceOf(b2b.bookingId);
      expect(byNumber.get(invoice.number)).toEqual([
        expect.objectContaining({
          HsnCd: sac,
          GstRt: 18,
          AssAmt: 1000,
          CgstAmt: 90,
          SgstAmt: 90,
          TotItemVal: 1180,
        }),
      ]);
    }
    for (const body of sent) expect(body).not.toContain('999692');
  });

  it('is GSTR-1’s table 12 row, described, in hsn(b2b) and hsn(b2c)', async () => {
    const res = await t.request('/api/invoices/gstr1/2026-11.zip', { headers: { cookie: organiser.cookie } });
    expect(res.status).toBe(200);
    const files = readZip(new Uint8Array(await res.arrayBuffer()));
    const rows = (name: string) => files.get(name)!.toString('utf8').split('\r\n').slice(1, -1);
    // Each: 1 ticket, value 1,180.00, 18 %, taxable 1,000.00, IGST 0, CGST 90.00, SGST 90.00, cess 0.
    const expected = [
      '999622,Performing arts event production and presentation services,NA,1,1180.00,18,1000.00,0.00,90.00,90.00,0.00',
      '999651,Sports and recreational sports event promotion and organisation services,NA,1,1180.00,18,1000.00,0.00,90.00,90.00,0.00',
      '999699,Other recreation and amusement services n.e.c.,NA,1,1180.00,18,1000.00,0.00,90.00,90.00,0.00',
    ];
    expect(rows('hsn(b2b).csv')).toEqual(expected);
    expect(rows('hsn(b2c).csv')).toEqual(expected);
    for (const [name, data] of files) expect(data.toString('utf8'), name).not.toContain('999692');
  });
});
