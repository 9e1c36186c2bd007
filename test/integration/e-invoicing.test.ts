import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { E_INVOICING_MESSAGES } from '../../shared/e-invoicing-schemas.ts';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import {
  MAX_E_INVOICE_ATTEMPTS,
  OUTSIDE_WINDOW,
  registerDueEInvoices,
} from '../../src-server/services/invoices/register-e-invoices.ts';
import { account, buy as buyTickets } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { MUMBAI_TAX_PROFILE, saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';

/**
 * E-invoicing (issue 36, item 15): an organiser who says e-invoicing applies to them gets each B2B tax
 * invoice registered with the IRP by the background job; the IRP stands at the network edge (msw), as
 * Razorpay and Resend do.
 *
 * The organiser is registered in Maharashtra; the show is in Mumbai; Gold costs ₹1,180 incl. 18 % GST.
 * A buyer with GSTIN 29AAGCB7383J1Z4 buys 2: line total 2,36,000 p; taxable 2,36,000 × 100/118 =
 * 2,00,000 p (₹2,000.00, so ₹1,000.000 a ticket before tax); tax 36,000 p split CGST 18,000 + SGST 18,000
 * (₹180 each: intra-state, the place of supply being Mumbai, code 27). The test clock is 21 Nov 2026 IST.
 */

const IRP = 'https://irp.example.test';
const GENERATE = `${IRP}/eicore/v1.03/Invoice`;
const IRN = 'a5c12dca80e743321740b001fd70953e8738d109865d28ba4013750f2046f229';
const SIGNED_QR = `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ data: { Irn: IRN } })).toString('base64url')}.c2ln`;
const BUYER = {
  ...DETAILS,
  buyerGstin: '29AAGCB7383J1Z4',
  buyerLegalName: 'Kaveri Events Pvt Ltd',
  buyerAddress: '80 Feet Road, Indiranagar, Bengaluru 560038',
};

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const IRP_ENV = {
  SEED_DEMO_DATA: 'false',
  EINVOICE_IRP_URL: IRP,
  EINVOICE_IRP_TOKEN: 'gsp-token-1',
} as const;

/** `aato`: the organiser's aggregate annual turnover is ₹10 crore or more (the reporting window applies). */
async function world(options: { eInvoicing?: boolean; city?: string; aato?: boolean } = {}) {
  t = await createTestAppOn(testEngine(), IRP_ENV);
  const organiser = await account(t, 'organiser');
  await saveTaxProfile(t, organiser.userId);
  if (options.eInvoicing !== false) {
    const setting = { applies: true, ...(options.aato ? { aatoTenCroreOrMore: true } : {}) };
    const res = await callProcedure(t, 'mutation', 'invoices.setEInvoicing', setting, organiser);
    expect(res.status).toBe(200);
  }
  const ev = await createTicketedEventOn(t.deps.db, {
    city: options.city ?? 'Mumbai',
    types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return { organiser, ev };
}

/** The IRP: answers each call with `answer`, keeping what was sent. */
function irp(answer: () => Response) {
  const calls: { body: Record<string, unknown>; headers: Headers }[] = [];
  mswServer.use(
    http.post(GENERATE, async ({ request }) => {
      calls.push({ body: (await request.json()) as Record<string, unknown>, headers: request.headers });
      return answer();
    }),
  );
  return calls;
}

const registered = () =>
  HttpResponse.json({
    Status: 1,
    Data: {
      AckNo: 112610036563310,
      AckDt: '2026-11-21 12:05:00',
      Irn: IRN,
      SignedInvoice: 'eyJ.signed.invoice',
      SignedQRCode: SIGNED_QR,
      Status: 'ACT',
    },
  });

const refused = () =>
  HttpResponse.json({
    Status: 0,
    ErrorDetails: [
      { ErrorCode: '2265', ErrorMessage: 'Recipient GSTIN state code does not match the state code' },
    ],
  });

async function registrationOf(invoiceId: string) {
  const { eInvoiceRegistrations } = tablesOf(t.deps.db);
  return (
    await t.deps.db.select().from(eInvoiceRegistrations).where(eq(eInvoiceRegistrations.invoiceId, invoiceId))
  )[0];
}

async function admissionInvoiceOf(bookingId: string) {
  const { invoices } = tablesOf(t.deps.db);
  return (await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId)))[0]!;
}

describe('e-invoicing', () => {
  it('sends the schema 1.1 payload from the stored invoice; stores the IRN; the PDF prints IRN and QR', async () => {
    const { organiser, ev } = await world();
    const calls = irp(registered);
    const { bookingId, buyer } = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    const invoice = await admissionInvoiceOf(bookingId);
    expect(await registrationOf(invoice.id), 'nothing is sent inside the confirmation').toBeUndefined();

    expect(await registerDueEInvoices(t.deps)).toBe(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.get('authorization')).toBe('Bearer gsp-token-1');
    expect(calls[0]!.headers.get('gstin')).toBe('27AAPFU0939F1ZV');
    expect(calls[0]!.body).toEqual({
      Version: '1.1',
      TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N', IgstOnIntra: 'N' },
      DocDtls: { Typ: 'INV', No: 'INV/26-27/000001', Dt: '21/11/2026' },
      SellerDtls: {
        Gstin: '27AAPFU0939F1ZV',
        LglNm: 'Tala Collective LLP',
        Addr1: '12 Hill Road, Bandra, Mumbai 400050',
        Loc: 'Mumbai',
        Pin: 400050,
        Stcd: '27',
      },
      BuyerDtls: {
        Gstin: '29AAGCB7383J1Z4',
        LglNm: 'Kaveri Events Pvt Ltd',
        Pos: '27',
        Addr1: '80 Feet Road, Indiranagar, Bengaluru 560038',
        Loc: 'Bengaluru',
        Pin: 560038,
        Stcd: '29',
      },
      ItemList: [
        {
          SlNo: '1',
          PrdDesc: expect.stringMatching(/Gold$/),
          IsServc: 'Y',
          HsnCd: '999622',
          Qty: 2,
          Unit: 'OTH',
          UnitPrice: 1000,
          TotAmt: 2000,
          AssAmt: 2000,
          GstRt: 18,
          IgstAmt: 0,
          CgstAmt: 180,
          SgstAmt: 180,
          TotItemVal: 2360,
        },
      ],
      ValDtls: { AssVal: 2000, CgstVal: 180, SgstVal: 180, IgstVal: 0, TotInvVal: 2360 },
    });

    expect(await registrationOf(invoice.id)).toMatchObject({
      status: 'registered',
      attempts: 1,
      irn: IRN,
      ackNumber: '112610036563310',
      ackDate: '2026-11-21 12:05:00',
      signedQrCode: SIGNED_QR,
      lastError: null,
      nextAttemptAt: null,
    });
    // Registered once: the next run sends nothing.
    expect(await registerDueEInvoices(t.deps)).toBe(0);
    expect(calls).toHaveLength(1);

    const pdf = await t.request(`/api/invoices/${invoice.id}.pdf`, { headers: { cookie: buyer.cookie } });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const text = pdfPageText(bytes);
    expect(text).toContain(`IRN: ${IRN}`);
    expect(text).toContain('Ack No: 112610036563310');
    expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
    const status = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(status.body.result?.data).toMatchObject({
      applies: true,
      providerConfigured: true,
      notRegistered: [],
    });
  });

  it('inter-state: a show in Bengaluru sends IGST and place of supply 29', async () => {
    const { ev } = await world({ city: 'Bangalore' });
    const calls = irp(registered);
    await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    await registerDueEInvoices(t.deps);
    // 2 × ₹1,180 incl. 18 %: taxable 2,00,000 p, IGST 36,000 p (Maharashtra → Karnataka), total 2,36,000 p.
    expect(calls[0]!.body).toMatchObject({
      BuyerDtls: { Pos: '29', Stcd: '29' },
      ItemList: [
        { HsnCd: '999622', GstRt: 18, AssAmt: 2000, IgstAmt: 360, CgstAmt: 0, SgstAmt: 0, TotItemVal: 2360 },
      ],
      ValDtls: { AssVal: 2000, CgstVal: 0, SgstVal: 0, IgstVal: 360, TotInvVal: 2360 },
    });
  });

  it('an IRP refusal is a failed state with its message, retried with back-off until it is registered', async () => {
    const { organiser, ev } = await world();
    let answer = refused;
    const calls = irp(() => answer());
    const { bookingId } = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    const invoice = await admissionInvoiceOf(bookingId);

    await registerDueEInvoices(t.deps);
    const message = 'IRP: 2265: Recipient GSTIN state code does not match the state code';
    // First failure: retried a minute later.
    expect(await registrationOf(invoice.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: message,
      nextAttemptAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      irn: null,
    });
    const shown = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(shown.body.result?.data).toMatchObject({
      notRegistered: [
        { invoiceId: invoice.id, number: 'INV/26-27/000001', status: 'failed', lastError: message },
      ],
    });

    await registerDueEInvoices(t.deps);
    expect(calls, 'not before its time').toHaveLength(1);
    t.clock.advance(60_000);
    await registerDueEInvoices(t.deps);
    expect(calls).toHaveLength(2);
    // Second failure: two minutes.
    expect((await registrationOf(invoice.id))!.nextAttemptAt).toBe(
      new Date(t.clock.now().getTime() + 120_000).toISOString(),
    );

    // The IRP cannot be reached: the same failed state, with that reason.
    answer = () => HttpResponse.error();
    t.clock.advance(120_000);
    await registerDueEInvoices(t.deps);
    expect(await registrationOf(invoice.id)).toMatchObject({ status: 'failed', attempts: 3 });
    expect((await registrationOf(invoice.id))!.lastError).toMatch(/^The IRP could not be reached/);

    answer = registered;
    t.clock.advance(240_000);
    await registerDueEInvoices(t.deps);
    expect(await registrationOf(invoice.id)).toMatchObject({
      status: 'registered',
      attempts: 4,
      irn: IRN,
      lastError: null,
    });
  });

  it('an answer lost after the IRP registered the invoice: the duplicate is looked up by its IRN', async () => {
    const { ev } = await world();
    irp(() =>
      HttpResponse.json({
        Status: 0,
        ErrorDetails: [{ ErrorCode: '2150', ErrorMessage: 'Duplicate IRN' }],
        InfoDtls: [
          { InfoCd: 'DUPIRN', Desc: { AckNo: 112610036563310, AckDt: '2026-11-21 12:05:00', Irn: IRN } },
        ],
      }),
    );
    const lookups: string[] = [];
    mswServer.use(
      http.get(`${GENERATE}/irn/:irn`, ({ params, request }) => {
        lookups.push(`${params.irn} ${request.headers.get('gstin')}`);
        return registered();
      }),
    );
    const { bookingId } = await buyTickets(t, ev, 1, { ticketDetails: BUYER });
    await registerDueEInvoices(t.deps);
    expect(lookups).toEqual([`${IRN} 27AAPFU0939F1ZV`]);
    expect(await registrationOf((await admissionInvoiceOf(bookingId)).id)).toMatchObject({
      status: 'registered',
      irn: IRN,
      signedQrCode: SIGNED_QR,
    });
  });

  it('stops retrying by itself after the last attempt; the organiser can retry; others get NOT_FOUND', async () => {
    const { organiser, ev } = await world();
    const calls = irp(refused);
    const { bookingId } = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    const invoice = await admissionInvoiceOf(bookingId);
    for (let i = 0; i < MAX_E_INVOICE_ATTEMPTS + 2; i++) {
      await registerDueEInvoices(t.deps);
      t.clock.advance(6 * 3_600_000);
    }
    expect(calls).toHaveLength(MAX_E_INVOICE_ATTEMPTS);
    expect(await registrationOf(invoice.id)).toMatchObject({
      status: 'failed',
      attempts: MAX_E_INVOICE_ATTEMPTS,
      nextAttemptAt: null,
    });

    const other = await account(t, 'organiser');
    const stranger = await callProcedure(
      t,
      'mutation',
      'invoices.retryEInvoice',
      { invoiceId: invoice.id },
      other,
    );
    expect(stranger.body.error?.data.code).toBe('NOT_FOUND');
    const retry = await callProcedure(
      t,
      'mutation',
      'invoices.retryEInvoice',
      { invoiceId: invoice.id },
      organiser,
    );
    expect(retry.status).toBe(200);
    await registerDueEInvoices(t.deps);
    expect(calls).toHaveLength(MAX_E_INVOICE_ATTEMPTS + 1);
  });

  it('at ₹10 crore or more, an invoice past the 30-day reporting window fails for good without calling the IRP', async () => {
    const { ev } = await world({ aato: true });
    const calls = irp(registered);
    const { bookingId } = await buyTickets(t, ev, 1, { ticketDetails: BUYER });
    t.clock.advance(31 * 86_400_000);
    await registerDueEInvoices(t.deps);
    expect(calls).toHaveLength(0);
    expect(await registrationOf((await admissionInvoiceOf(bookingId)).id)).toMatchObject({
      status: 'failed',
      lastError: OUTSIDE_WINDOW,
      nextAttemptAt: null,
    });
  });

  it('below ₹10 crore there is no 30-day window: an invoice 31 days old is still sent to the IRP', async () => {
    const { organiser, ev } = await world();
    const shown = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(shown.body.result?.data).toMatchObject({ applies: true, aatoTenCroreOrMore: false });
    const calls = irp(registered);
    const { bookingId } = await buyTickets(t, ev, 1, { ticketDetails: BUYER });
    t.clock.advance(31 * 86_400_000);
    await registerDueEInvoices(t.deps);
    expect(calls).toHaveLength(1);
    expect(await registrationOf((await admissionInvoiceOf(bookingId)).id)).toMatchObject({
      status: 'registered',
      irn: IRN,
    });
  });

  it('the turnover answer is kept when the setting is sent without it, and shown to the organiser', async () => {
    const { organiser } = await world({ aato: true });
    await callProcedure(t, 'mutation', 'invoices.setEInvoicing', { applies: true }, organiser);
    const shown = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(shown.body.result?.data).toMatchObject({ applies: true, aatoTenCroreOrMore: true });
    await callProcedure(
      t,
      'mutation',
      'invoices.setEInvoicing',
      { applies: true, aatoTenCroreOrMore: false },
      organiser,
    );
    const after = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(after.body.result?.data).toMatchObject({ aatoTenCroreOrMore: false });
  });

  it('turning it on needs a PIN code in the profile’s address; while on, the address cannot lose it', async () => {
    t = await createTestAppOn(testEngine(), IRP_ENV);
    const organiser = await account(t, 'organiser');
    const noPin = { ...MUMBAI_TAX_PROFILE, address: '12 Hill Road, Bandra, Mumbai' };
    await saveTaxProfile(t, organiser.userId, noPin);
    const refusedOn = await callProcedure(
      t,
      'mutation',
      'invoices.setEInvoicing',
      { applies: true },
      organiser,
    );
    expect(refusedOn.body.error?.data).toMatchObject({
      code: 'BAD_REQUEST',
      fieldErrors: { applies: E_INVOICING_MESSAGES.needsPin },
    });
    expect(refusedOn.body.error?.message).toBe(E_INVOICING_MESSAGES.needsPin);
    const still = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(still.body.result?.data).toMatchObject({ applies: false });

    const saved = await callProcedure(t, 'mutation', 'invoices.saveProfile', MUMBAI_TAX_PROFILE, organiser);
    expect(saved.status).toBe(200);
    const on = await callProcedure(t, 'mutation', 'invoices.setEInvoicing', { applies: true }, organiser);
    expect(on.status).toBe(200);

    const lost = await callProcedure(t, 'mutation', 'invoices.saveProfile', noPin, organiser);
    expect(lost.body.error?.data).toMatchObject({
      code: 'BAD_REQUEST',
      fieldErrors: { address: E_INVOICING_MESSAGES.addressNeedsPin },
    });
    const kept = await callProcedure(t, 'query', 'invoices.profile', undefined, organiser);
    expect(kept.body.result?.data).toMatchObject({ address: MUMBAI_TAX_PROFILE.address });

    // Off again, the address is the organiser's to write as they like.
    await callProcedure(t, 'mutation', 'invoices.setEInvoicing', { applies: false }, organiser);
    expect((await callProcedure(t, 'mutation', 'invoices.saveProfile', noPin, organiser)).status).toBe(200);
  });

  it('no IRP call for a B2C invoice, nor for an organiser below the threshold', async () => {
    const { ev } = await world();
    const calls = irp(registered);
    const b2c = await buyTickets(t, ev, 1);
    await registerDueEInvoices(t.deps);
    expect(calls).toHaveLength(0);
    expect(await registrationOf((await admissionInvoiceOf(b2c.bookingId)).id)).toBeUndefined();
    await t.close();

    const below = await world({ eInvoicing: false });
    const b2b = await buyTickets(t, below.ev, 1, { ticketDetails: BUYER });
    await registerDueEInvoices(t.deps);
    expect(calls).toHaveLength(0);
    expect(await registrationOf((await admissionInvoiceOf(b2b.bookingId)).id)).toBeUndefined();
  });

  it('the setting needs a GSTIN; invoices from before it was turned on are not sent', async () => {
    t = await createTestAppOn(testEngine(), IRP_ENV);
    const unregistered = await account(t, 'organiser');
    await saveOrganiserProfile(
      t.deps.db,
      null,
      unregistered.userId,
      organiserProfileSchema.parse({ legalName: 'Asha Verma', address: 'Pune 411001', state: 'Maharashtra' }),
      t.clock.now(),
    );
    const refusedSetting = await callProcedure(
      t,
      'mutation',
      'invoices.setEInvoicing',
      { applies: true },
      unregistered,
    );
    expect(refusedSetting.body.error?.data.code).toBe('BAD_REQUEST');
    await t.close();

    const { organiser, ev } = await world({ eInvoicing: false });
    const calls = irp(registered);
    await buyTickets(t, ev, 1, { ticketDetails: BUYER });
    t.clock.advance(1_000);
    await callProcedure(t, 'mutation', 'invoices.setEInvoicing', { applies: true }, organiser);
    const after = await buyTickets(t, ev, 1, { ticketDetails: BUYER });
    await registerDueEInvoices(t.deps);
    expect(calls.map((c) => (c.body.DocDtls as { No: string }).No)).toEqual([
      (await admissionInvoiceOf(after.bookingId)).number,
    ]);
  });

  it('without an IRP configured, the invoice waits as failed with that reason', async () => {
    const { ev } = await world();
    const { bookingId } = await buyTickets(t, ev, 1, { ticketDetails: BUYER });
    await registerDueEInvoices({ ...t.deps, eInvoiceProvider: null });
    expect(await registrationOf((await admissionInvoiceOf(bookingId)).id)).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('no IRP connection'),
    });
  });
});
