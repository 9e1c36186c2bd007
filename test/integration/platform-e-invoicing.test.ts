import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import {
  OUTSIDE_WINDOW,
  registerDueEInvoices,
} from '../../src-server/services/invoices/register-e-invoices.ts';
import { account, buy as buyTickets } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';

/**
 * E-invoicing of the platform's own documents (issue 36, item 15; ADR 0034): with
 * PLATFORM_E_INVOICING_SINCE set, the platform's convenience-fee invoices to buyers with a GSTIN, and
 * their credit notes, are registered with the IRP by the same job, back-off and window as an
 * organiser's; the admin sees what is waiting or failed and can retry. The IRP stands at the network
 * edge (msw).
 *
 * Hand-worked figures. The platform is registered in Karnataka (29AAGCB7383J1Z4); the organiser (not
 * under e-invoicing) in Maharashtra, the show in Mumbai. A buyer with Maharashtra's GSTIN
 * 27AAPFU0939F1ZV buys 2 × ₹1,000.00 = ₹2,000.00: the convenience fee is 5 % = ₹100.00 (10,000 p), its
 * GST 18 % = ₹18.00 (1,800 p), levied as IGST because the place of supply of the fee is the GSTIN's
 * state (Maharashtra, 27) and the platform is in Karnataka (29): ₹100 + IGST ₹18 = ₹118. One fee line,
 * SAC 998599, quantity 1 at ₹100.000 before tax. The test clock is 21 Nov 2026 IST.
 */

const IRP = 'https://irp.example.test';
const GENERATE = `${IRP}/eicore/v1.03/Invoice`;
const PLATFORM_GSTIN = '29AAGCB7383J1Z4';
const PLATFORM = {
  SEED_DEMO_DATA: 'false',
  EINVOICE_IRP_URL: IRP,
  EINVOICE_IRP_TOKEN: 'gsp-token-1',
  PLATFORM_GSTIN,
  PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
  PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
} as const;
const ON = { ...PLATFORM, PLATFORM_E_INVOICING_SINCE: '2026-11-01' } as const;
const BUYER = {
  ...DETAILS,
  state: 'Karnataka',
  buyerGstin: '27AAPFU0939F1ZV',
  buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
  buyerAddress: '4 MG Road, Pune 411001',
};
const SELLER_DTLS = {
  Gstin: PLATFORM_GSTIN,
  LglNm: 'Jalsa Technologies Pvt Ltd',
  Addr1: 'Indiranagar, Bengaluru 560038',
  Loc: 'Bengaluru',
  Pin: 560038,
  Stcd: '29',
};
const BUYER_DTLS = {
  Gstin: '27AAPFU0939F1ZV',
  LglNm: 'Asha Verma Consulting Pvt Ltd',
  Pos: '27',
  Addr1: '4 MG Road, Pune 411001',
  Loc: 'Pune',
  Pin: 411001,
  Stcd: '27',
};
const REFUSAL = 'IRP: 2283: IRN details cannot be provided as it is generated more than 2 days ago';

const irnOf = (typ: string, no: string) =>
  createHash('sha256').update(`${PLATFORM_GSTIN}${typ}${no}`).digest('hex');
const signedQr = (irn: string) =>
  `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ data: { Irn: irn } })).toString('base64url')}.c2ln`;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function world(env: Record<string, string> = ON) {
  t = await createTestAppOn(testEngine(), env);
  const organiser = await account(t, 'organiser');
  const admin = await account(t, 'admin');
  await saveTaxProfile(t, organiser.userId);
  const ev = await createTicketedEventOn(t.deps.db, {
    city: 'Mumbai',
    types: [{ name: 'Gold', pricePaise: 100_000, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return { organiser, admin, ev };
}

type Sent = { DocDtls: { Typ: string; No: string } } & Record<string, unknown>;

/** The IRP: registers every document (or refuses, while `refuse` says so), keeping what was sent. */
function irp(refuse: () => boolean = () => false) {
  const calls: { body: Sent; gstin: string | null }[] = [];
  mswServer.use(
    http.post(GENERATE, async ({ request }) => {
      const body = (await request.json()) as Sent;
      calls.push({ body, gstin: request.headers.get('gstin') });
      if (refuse()) {
        return HttpResponse.json({
          Status: 0,
          ErrorDetails: [
            {
              ErrorCode: '2283',
              ErrorMessage: 'IRN details cannot be provided as it is generated more than 2 days ago',
            },
          ],
        });
      }
      const irn = irnOf(body.DocDtls.Typ, body.DocDtls.No);
      return HttpResponse.json({
        Status: 1,
        Data: {
          AckNo: 112610036563310 + calls.length,
          AckDt: '2026-11-21 12:05:00',
          Irn: irn,
          SignedQRCode: signedQr(irn),
        },
      });
    }),
  );
  return calls;
}

async function feeInvoiceOf(bookingId: string) {
  const { invoices } = tablesOf(t.deps.db);
  return (await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId))).find(
    (i) => i.kind === 'platform_fee',
  )!;
}

async function registrationOf(invoiceId: string) {
  const { eInvoiceRegistrations } = tablesOf(t.deps.db);
  return (
    await t.deps.db.select().from(eInvoiceRegistrations).where(eq(eInvoiceRegistrations.invoiceId, invoiceId))
  )[0];
}

async function platformState(who: { cookie: string }) {
  return callProcedure(t, 'query', 'admin.eInvoicing', undefined, who);
}

/**
 * The items and totals of the fee both documents carry, worked by hand: 5 % of ₹2,000 = ₹100, IGST 18 % =
 * ₹18 (the platform in Karnataka, the buyer's GSTIN in Maharashtra), one item under SAC 998599.
 */
function feeOf100WithIgst18(bookingId: string) {
  return {
    ItemList: [
      {
        SlNo: '1',
        PrdDesc: `Convenience fee: booking ${bookingId}`,
        IsServc: 'Y',
        HsnCd: '998599',
        Qty: 1,
        Unit: 'OTH',
        UnitPrice: 100,
        TotAmt: 100,
        AssAmt: 100,
        GstRt: 18,
        IgstAmt: 18,
        CgstAmt: 0,
        SgstAmt: 0,
        TotItemVal: 118,
      },
    ],
    ValDtls: { AssVal: 100, CgstVal: 0, SgstVal: 0, IgstVal: 18, TotInvVal: 118 },
  };
}

describe('e-invoicing of the platform’s fee invoices', () => {
  it('registers a B2B fee invoice as the platform (SAC 998599, ₹100 + IGST ₹18); its PDF prints IRN and QR', async () => {
    const { admin, ev } = await world();
    const calls = irp();
    const { bookingId, buyer } = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    const fee = await feeInvoiceOf(bookingId);
    expect(fee.number).toBe('PLF/26-27/000001');

    expect(await registerDueEInvoices(t.deps)).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.gstin, 'the IRP is called as the platform').toBe(PLATFORM_GSTIN);
    expect(calls[0]!.body).toEqual({
      Version: '1.1',
      TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N', IgstOnIntra: 'N' },
      DocDtls: { Typ: 'INV', No: 'PLF/26-27/000001', Dt: '21/11/2026' },
      SellerDtls: SELLER_DTLS,
      BuyerDtls: BUYER_DTLS,
      ...feeOf100WithIgst18(bookingId),
    });
    const irn = irnOf('INV', 'PLF/26-27/000001');
    expect(await registrationOf(fee.id)).toMatchObject({
      issuer: 'platform',
      status: 'registered',
      attempts: 1,
      irn,
      ackNumber: '112610036563311',
      signedQrCode: signedQr(irn),
    });
    expect(await registerDueEInvoices(t.deps), 'registered once').toBe(0);

    const pdf = await t.request(`/api/invoices/${fee.id}.pdf`, { headers: { cookie: buyer.cookie } });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const text = pdfPageText(bytes);
    expect(text).toContain(`IRN: ${irn}`);
    expect(text).toContain('Ack No: 112610036563311');
    expect(text).toContain('Ack Date: 2026-11-21 12:05:00');
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);

    expect((await platformState(admin)).body.result?.data).toEqual({
      applies: true,
      since: '2026-10-31T18:30:00.000Z',
      aatoTenCroreOrMore: false,
      providerConfigured: true,
      notRegistered: [],
      creditNotesNotRegistered: [],
    });
  });

  it('never sends a B2C fee invoice, nor any with the setting off, nor one issued before the setting’s day', async () => {
    let { ev } = await world();
    let calls = irp();
    const b2c = await buyTickets(t, ev, 2, { ticketDetails: { ...DETAILS, state: 'Karnataka' } });
    expect(await registerDueEInvoices(t.deps)).toBe(0);
    expect(calls).toHaveLength(0);
    expect(await registrationOf((await feeInvoiceOf(b2c.bookingId)).id)).toBeUndefined();
    await t.close();

    ({ ev } = await world(PLATFORM));
    calls = irp();
    const off = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    expect(await registerDueEInvoices(t.deps)).toBe(0);
    expect(calls).toHaveLength(0);
    expect(await registrationOf((await feeInvoiceOf(off.bookingId)).id)).toBeUndefined();
    await t.close();

    // From 22 November (IST): the fee invoice of 21 November was not an e-invoice when it was issued.
    ({ ev } = await world({ ...PLATFORM, PLATFORM_E_INVOICING_SINCE: '2026-11-22' }));
    calls = irp();
    const before = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    expect(await registerDueEInvoices(t.deps)).toBe(0);
    expect(await registrationOf((await feeInvoiceOf(before.bookingId)).id)).toBeUndefined();
  });

  it('the 30-day window applies only with PLATFORM_AATO_10_CRORE: without it a fee invoice 31 days old is sent', async () => {
    for (const aato of [false, true]) {
      const { admin, ev } = await world(aato ? { ...ON, PLATFORM_AATO_10_CRORE: 'true' } : ON);
      const state = await platformState(admin);
      expect(state.body.result?.data).toMatchObject({ applies: true, aatoTenCroreOrMore: aato });
      const calls = irp();
      const b = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
      t.clock.advance(31 * 86_400_000);
      await registerDueEInvoices(t.deps);
      const fee = await feeInvoiceOf(b.bookingId);
      if (aato) {
        expect(calls).toHaveLength(0);
        expect(await registrationOf(fee.id)).toMatchObject({
          status: 'failed',
          lastError: OUTSIDE_WINDOW,
          nextAttemptAt: null,
        });
      } else {
        expect(calls).toHaveLength(1);
        expect(await registrationOf(fee.id)).toMatchObject({ status: 'registered' });
      }
      // The next world's app; the last is closed by afterEach.
      if (!aato) await t.close();
    }
  });

  it('a refusal is listed for the admin with the IRP’s message; the admin retries it (others may not)', async () => {
    const { admin, organiser, ev } = await world();
    let refuse = true;
    const calls = irp(() => refuse);
    const { bookingId } = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    const fee = await feeInvoiceOf(bookingId);
    await registerDueEInvoices(t.deps);
    // The same back-off as an organiser's: a minute after the first failure.
    expect(await registrationOf(fee.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: REFUSAL,
      nextAttemptAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    expect((await platformState(admin)).body.result?.data).toMatchObject({
      notRegistered: [
        { invoiceId: fee.id, number: 'PLF/26-27/000001', status: 'failed', attempts: 1, lastError: REFUSAL },
      ],
    });
    // The organiser's own list is theirs only: the platform's document is not in it.
    const own = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(own.body.result?.data).toMatchObject({ notRegistered: [] });

    expect((await platformState(organiser)).body.error?.data.code).toBe('FORBIDDEN');
    const byOrganiser = await callProcedure(
      t,
      'mutation',
      'admin.retryEInvoice',
      { invoiceId: fee.id },
      organiser,
    );
    expect(byOrganiser.body.error?.data.code).toBe('FORBIDDEN');
    const viaOrganiserRoute = await callProcedure(
      t,
      'mutation',
      'invoices.retryEInvoice',
      { invoiceId: fee.id },
      organiser,
    );
    expect(viaOrganiserRoute.body.error?.data.code, 'not the organiser’s invoice').toBe('NOT_FOUND');

    refuse = false;
    const retried = await callProcedure(t, 'mutation', 'admin.retryEInvoice', { invoiceId: fee.id }, admin);
    expect(retried.status).toBe(200);
    expect(await registerDueEInvoices(t.deps), 'due at once, not a minute later').toBe(1);
    expect(calls).toHaveLength(2);
    expect(await registrationOf(fee.id)).toMatchObject({
      status: 'registered',
      attempts: 1,
      lastError: null,
    });
    expect((await platformState(admin)).body.result?.data).toMatchObject({ notRegistered: [] });
  });

  it('a fee credit note after the fee invoice’s IRN goes to the IRP as CRN naming the fee invoice', async () => {
    const { admin, organiser, ev } = await world();
    const calls = irp();
    const { bookingId, buyer } = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      organiser,
    );
    expect(cancelled.status).toBe(200);
    const fee = await feeInvoiceOf(bookingId);
    const { creditNotes } = tablesOf(t.deps.db);
    const [note] = await t.deps.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, fee.id));
    // The whole fee back: ₹100 + IGST ₹18, the platform's first credit note.
    expect(note).toMatchObject({ issuer: 'platform', number: 'CRN/26-27/000001', totalPaise: 11_800 });

    // One run: the invoice first, then its note, once the invoice has its IRN.
    expect(await registerDueEInvoices(t.deps)).toBe(2);
    expect(calls.map((c) => `${c.body.DocDtls.Typ} ${c.body.DocDtls.No}`)).toEqual([
      'INV PLF/26-27/000001',
      'CRN CRN/26-27/000001',
    ]);
    expect(calls[1]!.gstin).toBe(PLATFORM_GSTIN);
    expect(calls[1]!.body).toEqual({
      Version: '1.1',
      TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N', IgstOnIntra: 'N' },
      DocDtls: { Typ: 'CRN', No: 'CRN/26-27/000001', Dt: '21/11/2026' },
      SellerDtls: SELLER_DTLS,
      BuyerDtls: BUYER_DTLS,
      ...feeOf100WithIgst18(bookingId),
      RefDtls: { PrecDocDtls: [{ InvNo: 'PLF/26-27/000001', InvDt: '21/11/2026' }] },
    });
    const irn = irnOf('CRN', 'CRN/26-27/000001');
    const pdf = await t.request(`/api/invoices/credit-notes/${note!.id}.pdf`, {
      headers: { cookie: buyer.cookie },
    });
    expect(pdf.status).toBe(200);
    expect(pdfPageText(Buffer.from(await pdf.arrayBuffer()))).toContain(`IRN: ${irn}`);
    expect((await platformState(admin)).body.result?.data).toMatchObject({ creditNotesNotRegistered: [] });
  });
});
