import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { CREDIT_NOTE_OUTSIDE_WINDOW } from '../../src-server/services/invoices/e-invoice-attempts.ts';
import { registerDueEInvoices } from '../../src-server/services/invoices/register-e-invoices.ts';
import { account, buy as buyTickets } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { mswServer } from '../mocks/server.ts';

/**
 * E-invoicing of credit notes (issue 36, items 12 and 15; ADR 0034): a credit note, whole or part, on a
 * B2B invoice of an organiser under e-invoicing is reported to the IRP as document type CRN, naming the
 * invoice it credits (RefDtls.PrecDocDtls: its number and date), and prints its own IRN and signed QR.
 * The IRP stands at the network edge (msw), as in e-invoicing.test.ts.
 *
 * Hand-worked figures. The organiser is registered in Maharashtra; the show is in Mumbai (intra-state:
 * CGST + SGST); Gold costs ₹1,180 incl. 18 % GST. A buyer with GSTIN 29AAGCB7383J1Z4 buys 2:
 *   line total 2 × 1,18,000 = 2,36,000 p; taxable 2,36,000 × 100/118 = 2,00,000 p; tax 36,000 p,
 *   CGST 18,000 + SGST 18,000.
 * Booking A (INV/26-27/000001) is cancelled by the organiser: the whole credit note CRN/26-27/000001
 *   copies the invoice: taxable 2,00,000, CGST 18,000, SGST 18,000, total 2,36,000 p (₹2,000 + ₹180 +
 *   ₹180 = ₹2,360), two tickets at ₹1,000.000 before tax.
 * Booking B (INV/26-27/000002) gets ₹500 back (organiser's "Refund part"): CRN/26-27/000002, heads in
 *   the invoice's proportion: CGST = round(18,000 × 50,000 / 2,36,000) = round(3,813.56) = 3,814;
 *   SGST = 3,814; taxable = 50,000 − 3,814 − 3,814 = 42,372 (₹423.72 + ₹38.14 + ₹38.14 = ₹500.00).
 * The test clock is 21 Nov 2026 IST, so every document is dated 21/11/2026.
 */

const IRP = 'https://irp.example.test';
const GENERATE = `${IRP}/eicore/v1.03/Invoice`;
const BUYER = {
  ...DETAILS,
  buyerGstin: '29AAGCB7383J1Z4',
  buyerLegalName: 'Kaveri Events Pvt Ltd',
  buyerAddress: '80 Feet Road, Indiranagar, Bengaluru 560038',
};
const SELLER = {
  Gstin: '27AAPFU0939F1ZV',
  LglNm: 'Tala Collective LLP',
  Addr1: '12 Hill Road, Bandra, Mumbai 400050',
  Loc: 'Mumbai',
  Pin: 400050,
  Stcd: '27',
};
const BUYER_DTLS = {
  Gstin: '29AAGCB7383J1Z4',
  LglNm: 'Kaveri Events Pvt Ltd',
  Pos: '27',
  Addr1: '80 Feet Road, Indiranagar, Bengaluru 560038',
  Loc: 'Bengaluru',
  Pin: 560038,
  Stcd: '29',
};

/** The IRN the mock IRP gives a document: a hash of its type and number, as the real one hashes them. */
const irnOf = (typ: string, no: string) =>
  createHash('sha256').update(`27AAPFU0939F1ZV${typ}${no}`).digest('hex');
const signedQr = (irn: string) =>
  `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify({ data: { Irn: irn } })).toString('base64url')}.c2ln`;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** `aato`: the organiser's aggregate annual turnover is ₹10 crore or more (the reporting window applies). */
async function world(aato = false) {
  t = await createTestAppOn(testEngine(), {
    SEED_DEMO_DATA: 'false',
    EINVOICE_IRP_URL: IRP,
    EINVOICE_IRP_TOKEN: 'gsp-token-1',
  });
  const organiser = await account(t, 'organiser');
  await saveTaxProfile(t, organiser.userId);
  const setting = { applies: true, ...(aato ? { aatoTenCroreOrMore: true } : {}) };
  const on = await callProcedure(t, 'mutation', 'invoices.setEInvoicing', setting, organiser);
  expect(on.status).toBe(200);
  const ev = await createTicketedEventOn(t.deps.db, {
    city: 'Mumbai',
    types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return { organiser, ev };
}

type Sent = { DocDtls: { Typ: string; No: string } } & Record<string, unknown>;

/** The IRP: registers every document (or refuses, while `refuse` says so), keeping what was sent. */
function irp(refuse: (body: Sent) => boolean = () => false) {
  const calls: Sent[] = [];
  mswServer.use(
    http.post(GENERATE, async ({ request }) => {
      const body = (await request.json()) as Sent;
      calls.push(body);
      if (refuse(body)) {
        return HttpResponse.json({
          Status: 0,
          ErrorDetails: [{ ErrorCode: '2212', ErrorMessage: 'The preceding document details are invalid' }],
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

const invoiceOf = async (bookingId: string) => {
  const { invoices } = tablesOf(t.deps.db);
  return (await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId))).find(
    (i) => i.kind === 'admission',
  )!;
};
const wholeNoteOf = async (invoiceId: string) => {
  const { creditNotes } = tablesOf(t.deps.db);
  return (await t.deps.db.select().from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId)))[0];
};
const partNotesOf = (invoiceId: string) => {
  const { partialCreditNotes } = tablesOf(t.deps.db);
  return t.deps.db.select().from(partialCreditNotes).where(eq(partialCreditNotes.invoiceId, invoiceId));
};
const registrationOf = async (creditNoteId: string) => {
  const { eCreditNoteRegistrations } = tablesOf(t.deps.db);
  return (
    await t.deps.db
      .select()
      .from(eCreditNoteRegistrations)
      .where(eq(eCreditNoteRegistrations.creditNoteId, creditNoteId))
  )[0];
};
const crns = (calls: Sent[]) => calls.filter((c) => c.DocDtls.Typ === 'CRN');

async function cancel(organiser: { cookie: string }, eventId: string, bookingId: string) {
  const res = await callProcedure(t, 'mutation', 'eventBookings.cancel', { eventId, bookingId }, organiser);
  expect(res.status).toBe(200);
}
async function refundPart(organiser: { cookie: string }, eventId: string, bookingId: string) {
  const res = await callProcedure(
    t,
    'mutation',
    'eventBookings.refundPart',
    { eventId, bookingId, amountPaise: 50_000, reason: 'Sound failed in the first half' },
    organiser,
  );
  expect(res.status).toBe(200);
}

describe('e-invoicing of credit notes', () => {
  it('a whole and a part credit note on e-invoiced B2B invoices go to the IRP as CRN; each PDF prints its IRN and QR', async () => {
    const { organiser, ev } = await world();
    const calls = irp();
    const a = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    const b = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    await registerDueEInvoices(t.deps);
    expect(calls.map((c) => `${c.DocDtls.Typ} ${c.DocDtls.No}`)).toEqual([
      'INV INV/26-27/000001',
      'INV INV/26-27/000002',
    ]);

    await cancel(organiser, ev.eventId, a.bookingId);
    await refundPart(organiser, ev.eventId, b.bookingId);
    const whole = (await wholeNoteOf((await invoiceOf(a.bookingId)).id))!;
    const [part] = await partNotesOf((await invoiceOf(b.bookingId)).id);
    expect(whole.number).toBe('CRN/26-27/000001');
    expect(part!.number).toBe('CRN/26-27/000002');

    expect(await registerDueEInvoices(t.deps)).toBe(2);
    const sent = crns(calls);
    expect(sent).toHaveLength(2);
    const common = {
      Version: '1.1',
      TranDtls: { TaxSch: 'GST', SupTyp: 'B2B', RegRev: 'N', IgstOnIntra: 'N' },
      SellerDtls: SELLER,
      BuyerDtls: BUYER_DTLS,
    };
    // The whole note: the invoice's two tickets back, ₹2,000 + CGST ₹180 + SGST ₹180 = ₹2,360.
    expect(sent.find((c) => c.DocDtls.No === 'CRN/26-27/000001')).toEqual({
      ...common,
      DocDtls: { Typ: 'CRN', No: 'CRN/26-27/000001', Dt: '21/11/2026' },
      RefDtls: { PrecDocDtls: [{ InvNo: 'INV/26-27/000001', InvDt: '21/11/2026' }] },
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
    // The part note: ₹423.72 + CGST ₹38.14 + SGST ₹38.14 = ₹500, one unit of the invoice's 18 % group.
    expect(sent.find((c) => c.DocDtls.No === 'CRN/26-27/000002')).toEqual({
      ...common,
      DocDtls: { Typ: 'CRN', No: 'CRN/26-27/000002', Dt: '21/11/2026' },
      RefDtls: { PrecDocDtls: [{ InvNo: 'INV/26-27/000002', InvDt: '21/11/2026' }] },
      ItemList: [
        {
          SlNo: '1',
          PrdDesc: expect.stringMatching(/Gold$/),
          IsServc: 'Y',
          HsnCd: '999622',
          Qty: 1,
          Unit: 'OTH',
          UnitPrice: 423.72,
          TotAmt: 423.72,
          AssAmt: 423.72,
          GstRt: 18,
          IgstAmt: 0,
          CgstAmt: 38.14,
          SgstAmt: 38.14,
          TotItemVal: 500,
        },
      ],
      ValDtls: { AssVal: 423.72, CgstVal: 38.14, SgstVal: 38.14, IgstVal: 0, TotInvVal: 500 },
    });

    const wholeIrn = irnOf('CRN', 'CRN/26-27/000001');
    const partIrn = irnOf('CRN', 'CRN/26-27/000002');
    expect(await registrationOf(whole.id)).toMatchObject({
      kind: 'whole',
      status: 'registered',
      attempts: 1,
      irn: wholeIrn,
      signedQrCode: signedQr(wholeIrn),
      nextAttemptAt: null,
    });
    expect(await registrationOf(part!.id)).toMatchObject({
      kind: 'part',
      status: 'registered',
      irn: partIrn,
    });
    // Registered once: the next run sends nothing.
    expect(await registerDueEInvoices(t.deps)).toBe(0);

    for (const [note, buyer, irn] of [
      [whole, a.buyer, wholeIrn],
      [part!, b.buyer, partIrn],
    ] as const) {
      const pdf = await t.request(`/api/invoices/credit-notes/${note.id}.pdf`, {
        headers: { cookie: buyer.cookie },
      });
      expect(pdf.status).toBe(200);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      const text = pdfPageText(bytes);
      expect(text).toContain(`Credit note number: ${note.number}`);
      // Rule 53 (issue 36, item 6): the recipient's name, address and GSTIN, as on the invoice. The buyer
      // typed Maharashtra (DETAILS.state) but the GSTIN's first two digits are 29: Karnataka is printed,
      // and Maharashtra only as the place of supply (the show is in Mumbai).
      const recipient = text.slice(text.indexOf('Recipient'), text.indexOf('Place of supply'));
      expect(recipient).toContain('Kaveri Events Pvt Ltd');
      expect(recipient).toContain('80 Feet Road, Indiranagar, Bengaluru 560038');
      expect(recipient).toContain('GSTIN: 29AAGCB7383J1Z4');
      expect(recipient).toContain('State: Karnataka (29)');
      expect(recipient).not.toContain('Maharashtra');
      expect(text).toContain('Place of supply: Maharashtra (27)');
      // Its own IRN, not its invoice's.
      expect(text).toContain(`IRN: ${irn}`);
      expect(text).not.toContain(
        irnOf('INV', (await invoiceOf(note === whole ? a.bookingId : b.bookingId)).number),
      );
      expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
    }
  });

  it('an IRP refusal of a credit note is shown to the organiser and retried with the same back-off', async () => {
    const { organiser, ev } = await world();
    let refuse = true;
    const calls = irp((body) => refuse && body.DocDtls.Typ === 'CRN');
    const b = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    await registerDueEInvoices(t.deps);
    await refundPart(organiser, ev.eventId, b.bookingId);
    const [part] = await partNotesOf((await invoiceOf(b.bookingId)).id);

    await registerDueEInvoices(t.deps);
    const message = 'IRP: 2212: The preceding document details are invalid';
    expect(await registrationOf(part!.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: message,
      nextAttemptAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      irn: null,
    });
    const shown = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(shown.body.result?.data).toMatchObject({
      notRegistered: [],
      creditNotesNotRegistered: [
        {
          creditNoteId: part!.id,
          kind: 'part',
          number: 'CRN/26-27/000001',
          invoiceNumber: 'INV/26-27/000001',
          status: 'failed',
          lastError: message,
          waitingForInvoice: false,
        },
      ],
    });

    await registerDueEInvoices(t.deps);
    expect(crns(calls), 'not before its time').toHaveLength(1);
    t.clock.advance(60_000);
    await registerDueEInvoices(t.deps);
    expect(crns(calls)).toHaveLength(2);
    // Second failure: two minutes.
    expect((await registrationOf(part!.id))!.nextAttemptAt).toBe(
      new Date(t.clock.now().getTime() + 120_000).toISOString(),
    );

    refuse = false;
    t.clock.advance(120_000);
    await registerDueEInvoices(t.deps);
    expect(await registrationOf(part!.id)).toMatchObject({
      status: 'registered',
      attempts: 3,
      lastError: null,
    });
    const after = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(after.body.result?.data).toMatchObject({ creditNotesNotRegistered: [] });

    // Another organiser cannot retry it; its owner may once the retries have stopped (here: registered).
    const other = await account(t, 'organiser');
    const stranger = await callProcedure(
      t,
      'mutation',
      'invoices.retryEInvoice',
      { creditNoteId: part!.id },
      other,
    );
    expect(stranger.body.error?.data.code).toBe('NOT_FOUND');
    const again = await callProcedure(
      t,
      'mutation',
      'invoices.retryEInvoice',
      { creditNoteId: part!.id },
      organiser,
    );
    expect(again.body.error?.data.code).toBe('BAD_REQUEST');
  });

  it('a credit note waits for its invoice’s IRN, then goes in the same run as the invoice', async () => {
    const { organiser, ev } = await world();
    let invoiceRefused = true;
    const calls = irp((body) => invoiceRefused && body.DocDtls.Typ === 'INV');
    const a = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
    await registerDueEInvoices(t.deps);
    await cancel(organiser, ev.eventId, a.bookingId);
    const whole = (await wholeNoteOf((await invoiceOf(a.bookingId)).id))!;
    t.clock.advance(60_000);
    await registerDueEInvoices(t.deps);
    expect(crns(calls), 'no CRN while the invoice has no IRN').toHaveLength(0);
    expect(await registrationOf(whole.id)).toMatchObject({ status: 'pending', attempts: 0 });
    const shown = await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, organiser);
    expect(shown.body.result?.data).toMatchObject({
      creditNotesNotRegistered: [{ creditNoteId: whole.id, status: 'pending', waitingForInvoice: true }],
    });

    invoiceRefused = false;
    t.clock.advance(120_000);
    await registerDueEInvoices(t.deps);
    expect(calls.slice(-2).map((c) => c.DocDtls.Typ)).toEqual(['INV', 'CRN']);
    expect(await registrationOf(whole.id)).toMatchObject({ status: 'registered' });
  });

  it('the 30-day window applies to a credit note only at ₹10 crore or more: below, one 31 days old is sent', async () => {
    for (const aato of [false, true]) {
      const { organiser, ev } = await world(aato);
      const calls = irp();
      const b = await buyTickets(t, ev, 2, { ticketDetails: BUYER });
      await registerDueEInvoices(t.deps);
      await refundPart(organiser, ev.eventId, b.bookingId);
      const [part] = await partNotesOf((await invoiceOf(b.bookingId)).id);
      t.clock.advance(31 * 86_400_000);
      await registerDueEInvoices(t.deps);
      if (aato) {
        expect(crns(calls), 'past the window: not sent').toHaveLength(0);
        expect(await registrationOf(part!.id)).toMatchObject({
          status: 'failed',
          lastError: CREDIT_NOTE_OUTSIDE_WINDOW,
          nextAttemptAt: null,
        });
      } else {
        expect(crns(calls), 'no window below ₹10 crore').toHaveLength(1);
        expect(await registrationOf(part!.id)).toMatchObject({ status: 'registered' });
      }
      // The next world's app; the last is closed by afterEach.
      if (!aato) await t.close();
    }
  });

  it('a B2C credit note of the same organiser is not sent', async () => {
    const { organiser, ev } = await world();
    const calls = irp();
    const b2c = await buyTickets(t, ev, 2);
    const part = await buyTickets(t, ev, 2);
    await cancel(organiser, ev.eventId, b2c.bookingId);
    await refundPart(organiser, ev.eventId, part.bookingId);
    const whole = (await wholeNoteOf((await invoiceOf(b2c.bookingId)).id))!;
    const [partNote] = await partNotesOf((await invoiceOf(part.bookingId)).id);
    expect(whole).toBeDefined();
    expect(partNote).toBeDefined();
    expect(await registerDueEInvoices(t.deps)).toBe(0);
    expect(calls).toHaveLength(0);
    expect(await registrationOf(whole.id)).toBeUndefined();
    expect(await registrationOf(partNote!.id)).toBeUndefined();
  });
});
