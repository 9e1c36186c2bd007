import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { EXEMPT_WORDING } from '../../shared/gst.ts';
import { composeDeps } from '../../src-server/compose-deps.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres } from '../../src-server/db/engine/postgres.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { changes } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { GSTIN_ALREADY_GIVEN, GSTIN_TOO_LATE } from '../../src-server/services/invoices/add-buyer-gstin.ts';
import { financialYearOf } from '../../src-server/services/invoices/document-numbers.ts';
import { FEE_NOT_TAXED_NOTE } from '../../src-server/services/invoices/issue-booking-invoices.ts';
import { issueCreditNotesSteps } from '../../src-server/services/invoices/issue-credit-note.ts';
import { settlePayment } from '../../src-server/services/payments/confirm.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { account, buy as buyOn, signedInUser, teamMember } from '../helpers/engine-fixtures.ts';
import {
  createTicketedEventOn,
  DETAILS,
  type TicketedEvent,
  type TicketTypeSpec,
} from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
};

/** The platform's own GST details: its convenience-fee invoices are issued (Karnataka, the buyer elsewhere). */
const PLATFORM_GST = {
  PLATFORM_GSTIN: '29AAGCB7383J1Z4',
  PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
  PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
};

/** No platform registration: demo data (which brings the demo's registration) is off. */
const NO_PLATFORM_GST = { SEED_DEMO_DATA: 'false' } as const;

let t: TestApp;
// Once per app: a test without one (financialYearOf) must not close the previous test's again.
afterEach(async () => {
  const app: TestApp | undefined = t;
  t = undefined as unknown as TestApp;
  await app?.close();
});

async function organiserWithEvent(
  options: { city?: string; types?: TicketTypeSpec[]; profile?: boolean } = {},
) {
  const organiser = await account(t, 'organiser');
  if (options.profile !== false) await saveTaxProfile(t, organiser.userId, PROFILE);
  const ev = await createTicketedEventOn(t.deps.db, { types: options.types, city: options.city ?? 'Mumbai' });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return { organiser, ev };
}

async function buy(ev: TicketedEvent, quantity: number, details: object = DETAILS) {
  const { buyer, bookingId } = await buyOn(t, ev, quantity, { ticketDetails: details });
  return { buyer, bookingId };
}

function invoicesOf(bookingId: string) {
  const { invoices } = tablesOf(t.deps.db);
  return t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId));
}

async function creditNotesNow() {
  const { creditNotes } = tablesOf(t.deps.db);
  return t.deps.db.select().from(creditNotes);
}

/** `issueCreditNotes` in a write transaction of its own, on either engine. */
function issueCreditNotesFor(bookingId: string) {
  return runnerFor(t.deps.db).write((tx) =>
    issueCreditNotesSteps(tx as never, bookingId, 'Cancelled by the buyer', t.clock.now()),
  );
}

/** What a refused statement said: PostgreSQL's driver error is the cause of Drizzle's "Failed query". */
async function refusalOf(statement: PromiseLike<unknown>): Promise<string> {
  try {
    await statement;
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    return `${String(err)} ${cause ? String(cause) : ''}`;
  }
  throw new Error('the statement was not refused');
}

describe('invoices issued at confirmation', () => {
  it('intra-state: CGST + SGST, buyer GSTIN, numbered in the financial year, fee stated as not taxed', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    const { bookingId } = await buy(ev, 2, {
      ...DETAILS,
      buyerGstin: '27aapfu0939f1zv',
      buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
      buyerAddress: '4 MG Road, Pune 411001',
    });
    const [invoice, ...more] = await invoicesOf(bookingId);
    expect(more).toEqual([]);
    // The test clock is 21 Nov 2026 (IST): financial year 2026-27.
    expect(invoice).toMatchObject({
      kind: 'admission',
      documentType: 'tax_invoice',
      issuer: organiser.userId,
      number: 'INV/26-27/000001',
      financialYear: '26-27',
      supplierGstin: '27AAPFU0939F1ZV',
      buyerName: DETAILS.name,
      buyerState: 'Maharashtra',
      buyerGstin: '27AAPFU0939F1ZV',
      buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
      placeOfSupply: 'Maharashtra',
      taxableValuePaise: 200_000,
      cgstPaise: 18_000,
      sgstPaise: 18_000,
      igstPaise: 0,
      totalPaise: 236_000,
    });
    expect(invoice!.number.length).toBeLessThanOrEqual(16);
    // The stored line, exactly: its tax split and no more (the tax's sum is on the invoice).
    expect(invoice!.lines).toEqual([
      {
        description: expect.stringMatching(/: Gold$/),
        sac: '999622',
        quantity: 2,
        unitPricePaise: 118_000,
        personsPerTicket: 1,
        kind: 'intra',
        taxRatePercent: 18,
        taxableValuePaise: 200_000,
        cgstPaise: 18_000,
        sgstPaise: 18_000,
        igstPaise: 0,
        totalPaise: 236_000,
      },
    ]);
    // No platform registration: 5 % of ₹2,360 = ₹118 fee, charged without GST, and the invoice says so.
    expect(invoice!.notes).toEqual([FEE_NOT_TAXED_NOTE('₹118.00')]);
    expect(invoice!.notes[0]).toContain('not charged with tax');
    const { bookings } = tablesOf(t.deps.db);
    const [booked] = await t.deps.db
      .select({
        fee: bookings.feeAmountPaise,
        igst: bookings.igstAmountPaise,
        total: bookings.totalAmountPaise,
      })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    expect(booked).toEqual({ fee: 11_800, igst: 0, total: 236_000 + 11_800 });

    const second = await buy(ev, 1);
    expect((await invoicesOf(second.bookingId))[0]).toMatchObject({
      number: 'INV/26-27/000002',
      buyerGstin: null,
    });
  });

  it('inter-state: the venue in another state gets IGST; ₹500 admission is exempt and says so', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent({
      city: 'Bangalore',
      types: [
        { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
        { name: 'Lawn', pricePaise: 50_000, totalTickets: 20 },
      ],
    });
    const a = await buy(ev, 1);
    expect((await invoicesOf(a.bookingId))[0]).toMatchObject({
      placeOfSupply: 'Karnataka',
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 18_000,
      taxableValuePaise: 100_000,
    });
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1, {
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[1]!, quantity: 3 }],
    });
    const res = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    const exempt = (await invoicesOf((res.data as { bookingId: string }).bookingId))[0]!;
    expect(exempt).toMatchObject({ taxableValuePaise: 150_000, igstPaise: 0, totalPaise: 150_000 });
    expect(exempt.lines[0]!.kind).toBe('exempt');
    expect(exempt.notes[0]).toBe(EXEMPT_WORDING);
  });

  it('issues the platform’s own fee invoice when its GST details are configured', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 5 }],
    });
    const { bookingId } = await buy(ev, 1);
    const fee = (await invoicesOf(bookingId)).find((i) => i.kind === 'platform_fee')!;
    // Fee 5 % of ₹1,180 = ₹59; IGST 18 % = ₹10.62 (buyer in Maharashtra, platform in Karnataka).
    expect(fee).toMatchObject({
      issuer: 'platform',
      number: 'PLF/26-27/000001',
      taxableValuePaise: 5_900,
      igstPaise: 1_062,
      totalPaise: 6_962,
    });
    expect((await invoicesOf(bookingId)).find((i) => i.kind === 'admission')!.notes).toEqual([]);
  });

  it('gives no invoice (and still books) when the organiser has no tax profile', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent({ profile: false });
    const { bookingId } = await buy(ev, 1);
    expect(await invoicesOf(bookingId)).toEqual([]);
  });

  it('200 simultaneous confirmations on four threads get 200 consecutive numbers, no gaps, no duplicates', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 400 }],
    });
    const now = t.clock.now().toISOString();
    const later = new Date(t.clock.now().getTime() + 600_000).toISOString();
    const orders = Array.from({ length: 200 }, (_, i) => ({
      orderId: `order_${i}`,
      holdId: randomUUID(),
      userId: randomUUID(),
    }));
    // 200 buyers, each with a hold of one ticket and its payment order waiting for the gateway's answer.
    await runnerFor(t.deps.db).write(function* (tx) {
      const { users, holds, holdItems, paymentOrders } = tablesOf(tx);
      yield* changes(
        tx.insert(users).values(
          orders.map((o, i) => ({
            id: o.userId,
            email: `racer${i}-${o.userId.slice(0, 8)}@example.com`,
            name: `Racer ${i}`,
            phone: '9876543210',
            isEmailVerified: true,
            createdAt: now,
            updatedAt: now,
          })),
        ),
      );
      yield* changes(
        tx.insert(holds).values(
          orders.map((o) => ({
            id: o.holdId,
            userId: o.userId,
            eventId: ev.eventId,
            eventDateId: ev.dateId,
            slotId: ev.slotId,
            details: { ...DETAILS, phone: '9876543210' },
            subtotalPaise: 118_000,
            feePaise: 5_900,
            igstPaise: 1_062,
            totalPaise: 124_962,
            sessionExpiresAt: later,
            expiresAt: later,
            seats: 1,
            createdAt: now,
          })),
        ),
      );
      yield* changes(
        tx.insert(holdItems).values(
          orders.map((o) => ({
            holdId: o.holdId,
            ticketTypeId: ev.ticketTypeIds[0]!,
            quantity: 1,
            pricePaise: 118_000,
          })),
        ),
      );
      yield* changes(
        tx.insert(paymentOrders).values(
          orders.map((o) => ({
            id: o.orderId,
            gateway: 'simulator' as const,
            holdId: o.holdId,
            userId: o.userId,
            amountPaise: 124_962,
            currency: 'INR',
            receipt: o.orderId,
            notes: {},
            createdAt: now,
          })),
        ),
      );
    });
    const shareOf = (w: number) =>
      orders.flatMap(({ orderId }, i) => (i % 4 === w ? [{ orderId, paymentId: `pay_${i}` }] : []));
    // Four servers settle 50 orders each at once, each with its own connections: on SQLite four worker
    // threads with their own connection to the database file contend for its write lock like server
    // processes do; on PostgreSQL four pools on the one database contend for the counter's row.
    const outcomes = (
      await Promise.all(
        [0, 1, 2, 3].map((w) =>
          t.engine === 'postgres'
            ? settleOnPool(shareOf(w), 124_962)
            : settleInWorker(t.dataDir, shareOf(w), 124_962),
        ),
      )
    ).flat();
    expect(outcomes).toHaveLength(200);
    expect(outcomes.every((o) => o === 'booked')).toBe(true);
    const { invoices, documentCounters } = tablesOf(t.deps.db);
    const numbers = (
      await t.deps.db
        .select({ number: invoices.number })
        .from(invoices)
        .where(eq(invoices.issuer, organiser.userId))
    )
      .map((r) => r.number)
      .sort();
    expect(numbers).toHaveLength(200);
    expect(numbers).toEqual(
      Array.from({ length: 200 }, (_, i) => `INV/26-27/${String(i + 1).padStart(6, '0')}`),
    );
    expect(await t.deps.db.select().from(documentCounters)).toEqual([
      { issuer: organiser.userId, series: 'invoice', financialYear: '26-27', lastNumber: 200 },
    ]);
    // Four threads each load the app's modules through tsx first: slow on a busy 2-core machine.
  }, 120_000);
});
describe('credit notes', () => {
  it('refer to the invoice, copy its amounts, have their own series and are issued once', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 75_000, totalTickets: 5 }],
    });
    const { bookingId } = await buy(ev, 1);
    const invoice = (await invoicesOf(bookingId))[0]!;
    const first = await issueCreditNotesFor(bookingId);
    const again = await issueCreditNotesFor(bookingId);
    expect(again).toEqual(first);
    const notes = await creditNotesNow();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      invoiceId: invoice.id,
      issuer: organiser.userId,
      number: 'CRN/26-27/000001',
      // ₹750 incl: 635.59 taxable, 114.41 tax is odd → its odd paisa moves to the taxable value so the
      // heads are equal (issue 36): 635.60 + 57.20 + 57.20.
      taxableValuePaise: 63_560,
      cgstPaise: 5_720,
      sgstPaise: 5_720,
      totalPaise: 75_000,
    });
    // The invoice itself is untouched, and the database refuses to change or remove either document.
    expect((await invoicesOf(bookingId))[0]).toEqual(invoice);
    const { invoices, creditNotes } = tablesOf(t.deps.db);
    expect(
      await refusalOf(t.deps.db.update(invoices).set({ totalPaise: 1 }).where(eq(invoices.id, invoice.id))),
    ).toMatch(/invoices are immutable/);
    expect(await refusalOf(t.deps.db.delete(invoices).where(eq(invoices.id, invoice.id)))).toMatch(
      /invoices are immutable/,
    );
    expect(await refusalOf(t.deps.db.update(creditNotes).set({ reason: 'x' }))).toMatch(
      /credit notes are immutable/,
    );
  });

  it('have their own rows in the monthly CSV, after the totals, referring to the invoice', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 75_000, totalTickets: 5 }],
    });
    const { bookingId } = await buy(ev, 1);
    const invoice = (await invoicesOf(bookingId))[0]!;
    await issueCreditNotesFor(bookingId);
    const res = await t.request('/api/invoices/month/2026-11.csv', { headers: { cookie: organiser.cookie } });
    expect(res.status).toBe(200);
    const rows = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows.slice(1)).toEqual([
      'B2C,,,,,27-Maharashtra,18,635.60,0.00,57.20,57.20,0.00,750.00,',
      // At the rate of the supply it credits (18 %), like its invoice's row.
      `Credit note,CRN/26-27/000001,2026-11-21,,,27-Maharashtra,18,635.60,0.00,57.20,57.20,0.00,750.00,${invoice.number}`,
    ]);
  });
});

describe('credit notes on cancellation', () => {
  it('an organiser cancelling a booking issues its credit note in the same step, once', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 75_000, totalTickets: 5 }],
    });
    const { bookingId } = await buy(ev, 1);
    const invoice = (await invoicesOf(bookingId))[0]!;
    const cancel = () =>
      callProcedure(
        t,
        'mutation',
        'eventBookings.cancel',
        { eventId: ev.eventId, bookingId },
        { cookie: organiser.cookie },
      );
    expect((await cancel()).status).toBe(200);
    await cancel(); // a second cancel changes nothing
    const notes = await creditNotesNow();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ invoiceId: invoice.id, totalPaise: invoice.totalPaise });
  });

  // A credit note lowers the supply by what was given back: what a buyer's refund policy keeps stays
  // invoiced.
  it.each([
    ['full', null, { admission: 1, platform_fee: 1 }],
    ['minus_fee', null, { admission: 1, platform_fee: 0 }],
    ['percent', 40, { admission: 0.4, platform_fee: 0.4 }],
  ] as const)(
    'a buyer cancelling under a %s policy credits that share of each invoice',
    async (rule, percent, share) => {
      t = await createTestAppOn(testEngine(), PLATFORM_GST);
      const { ev } = await organiserWithEvent({
        types: [{ name: 'Gold', pricePaise: 118_099, totalTickets: 5 }],
      });
      const { events } = tablesOf(t.deps.db);
      await t.deps.db
        .update(events)
        .set({ refundRule: rule, refundPercent: percent })
        .where(eq(events.id, ev.eventId));
      const { buyer, bookingId } = await buy(ev, 2);
      const issued = await invoicesOf(bookingId);
      expect(issued.map((i) => i.kind).sort()).toEqual(['admission', 'platform_fee']);
      const res = await callProcedure(
        t,
        'mutation',
        'bookings.cancel',
        { bookingId },
        { cookie: buyer.cookie },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      const notes = await creditNotesNow();
      for (const invoice of issued) {
        const note = notes.find((n) => n.invoiceId === invoice.id);
        const fraction = share[invoice.kind];
        if (fraction === 0) {
          expect(note, invoice.kind).toBeUndefined();
          continue;
        }
        const part = (paise: number) => Math.round(paise * fraction);
        expect(note, invoice.kind).toMatchObject({
          taxableValuePaise: part(invoice.taxableValuePaise),
          cgstPaise: part(invoice.cgstPaise),
          sgstPaise: part(invoice.sgstPaise),
          igstPaise: part(invoice.igstPaise),
        });
        // Each note adds up; a whole one is the invoice's total exactly.
        expect(note!.totalPaise).toBe(
          note!.taxableValuePaise + note!.cgstPaise + note!.sgstPaise + note!.igstPaise,
        );
        if (fraction === 1) expect(note!.totalPaise).toBe(invoice.totalPaise);
      }
      // Under every rule, the credit notes together are within a paisa per amount of what was refunded.
      const credited = notes.reduce((sum, n) => sum + n.totalPaise, 0);
      const refunded = (res.data as { refundAmountPaise: number }).refundAmountPaise;
      expect(Math.abs(credited - refunded)).toBeLessThanOrEqual(8);
    },
  );
});

describe('financialYearOf', () => {
  it('turns on 1 April, IST', () => {
    expect(financialYearOf(new Date('2026-03-31T18:29:59Z'))).toBe('25-26');
    expect(financialYearOf(new Date('2026-03-31T18:30:00Z'))).toBe('26-27');
    expect(financialYearOf(new Date('2099-12-31T00:00:00Z'))).toBe('99-00');
  });
});

describe('invoice downloads', () => {
  it('the PDF shows the split; only the buyer and the event’s sales team may download it', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    const { buyer, bookingId } = await buy(ev, 1, {
      ...DETAILS,
      buyerGstin: '27AAPFU0939F1ZV',
      buyerLegalName: 'Asha Verma Consulting Pvt Ltd',
      buyerAddress: '4 MG Road, Pune 411001',
    });
    const invoice = (await invoicesOf(bookingId))[0]!;
    const get = (cookie?: string) =>
      t.request(`/api/invoices/${invoice.id}.pdf`, { headers: cookie ? { cookie } : {} });

    const res = await get(buyer.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = pdfPageText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('Tax invoice');
    expect(text).toContain('Invoice number: INV/26-27/000001');
    expect(text).toContain('CGST: Rs. 90.00');
    expect(text).toContain('SGST: Rs. 90.00');
    expect(text).toContain('GSTIN: 27AAPFU0939F1ZV');
    expect(text).toContain('Place of supply: Maharashtra (27)');
    expect(text).not.toContain('IGST:');

    const coOrganiser = await account(t, 'organiser');
    await teamMember(t, ev.eventId, coOrganiser.userId, 'co_organiser');
    const gate = await account(t);
    await teamMember(t, ev.eventId, gate.userId, 'gate_staff');
    expect((await get(organiser.cookie)).status).toBe(200);
    expect((await get(coOrganiser.cookie)).status).toBe(200);
    expect((await get(gate.cookie)).status).toBe(404);
    expect((await get((await account(t, 'organiser')).cookie)).status).toBe(404);
    expect((await get((await signedInUser(t)).cookie)).status).toBe(404);
    expect((await get()).status).toBe(404);
  });

  it('a cancelled booking’s credit notes download as PDFs, for the buyer and the event’s sales team only', async () => {
    t = await createTestAppOn(testEngine(), { ...NO_PLATFORM_GST, ...PLATFORM_GST });
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    const { buyer, bookingId } = await buy(ev, 1);
    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: organiser.cookie },
    );
    expect(cancelled.status).toBe(200);
    // My Bookings lists each invoice with its credit note's id and number.
    const listed = await callProcedure(
      t,
      'query',
      'invoices.forBooking',
      { bookingId },
      { cookie: buyer.cookie },
    );
    const summaries = listed.data as {
      kind: string;
      creditNoteId: string | null;
      creditNoteNumber: string;
    }[];
    const admission = summaries.find((i) => i.kind === 'admission')!;
    const fee = summaries.find((i) => i.kind === 'platform_fee')!;
    expect(admission.creditNoteId).toEqual(expect.any(String));
    expect(fee.creditNoteId).toEqual(expect.any(String));
    const get = (id: string, cookie?: string) =>
      t.request(`/api/invoices/credit-notes/${id}.pdf`, { headers: cookie ? { cookie } : {} });

    const res = await get(admission.creditNoteId!, buyer.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('jalsa-credit-note-CRN-26-27-000001.pdf');
    const invoice = (await invoicesOf(bookingId)).find((i) => i.kind === 'admission')!;
    const text = pdfPageText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('Credit note');
    expect(text).toContain('Credit note number: CRN/26-27/000001');
    expect(text).toContain(`Against tax invoice ${invoice.number}`);
    expect(text).toContain('Amounts credited');
    // ₹1,180 paid, tax included: taxable 1000.00, CGST 90.00 + SGST 90.00, all credited.
    expect(text).toContain('CGST: Rs. 90.00');
    expect(text).toContain('Credit note total: Rs. 1,180.00');
    // The fee's credit note is the buyer's (and the platform's), not the organiser's.
    expect((await get(fee.creditNoteId!, buyer.cookie)).status).toBe(200);
    expect((await get(fee.creditNoteId!, organiser.cookie)).status).toBe(404);

    const coOrganiser = await account(t, 'organiser');
    await teamMember(t, ev.eventId, coOrganiser.userId, 'co_organiser');
    const gate = await account(t);
    await teamMember(t, ev.eventId, gate.userId, 'gate_staff');
    expect((await get(admission.creditNoteId!, organiser.cookie)).status).toBe(200);
    expect((await get(admission.creditNoteId!, coOrganiser.cookie)).status).toBe(200);
    expect((await get(admission.creditNoteId!, gate.cookie)).status).toBe(404);
    expect((await get(admission.creditNoteId!, (await account(t, 'organiser')).cookie)).status).toBe(404);
    expect((await get(admission.creditNoteId!, (await signedInUser(t)).cookie)).status).toBe(404);
    expect((await get(admission.creditNoteId!)).status).toBe(404);
    expect((await get('no-such-note', buyer.cookie)).status).toBe(404);
  });

  it('the monthly CSV has B2B rows with the GSTIN and B2C totals by state and rate', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [
        { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
        { name: 'Lawn', pricePaise: 40_000, totalTickets: 20 },
      ],
    });
    await buy(ev, 1, {
      ...DETAILS,
      buyerGstin: '27AAPFU0939F1ZV',
      buyerLegalName: 'Verma Consulting',
      buyerAddress: '4 MG Road, Pune 411001',
    });
    await buy(ev, 2);
    await buy(ev, 1);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1, {
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[1]!, quantity: 1 }],
    });
    await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));

    const res = await t.request('/api/invoices/month/2026-11.csv', { headers: { cookie: organiser.cookie } });
    expect(res.status).toBe(200);
    const rows = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toMatch(/^Section,Document number,Date,Buyer GSTIN/);
    expect(rows.slice(1)).toEqual([
      'B2B,INV/26-27/000001,2026-11-21,27AAPFU0939F1ZV,Verma Consulting,27-Maharashtra,18,1000.00,0.00,90.00,90.00,0.00,1180.00,',
      // Three Gold tickets in two bookings: 3000.00 taxable, 540.00 tax split 270 + 270 (no UTGST).
      'B2C,,,,,27-Maharashtra,18,3000.00,0.00,270.00,270.00,0.00,3540.00,',
      'Exempt,,,,,,0,400.00,0.00,0.00,0.00,0.00,400.00,',
    ]);
    const empty = await t.request('/api/invoices/month/2026-10.csv', {
      headers: { cookie: organiser.cookie },
    });
    expect(
      (await empty.text())
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
    expect(
      (await t.request('/api/invoices/month/2026-13.csv', { headers: { cookie: organiser.cookie } })).status,
    ).toBe(400);
    expect(
      (await t.request('/api/invoices/month/2026-12.csv', { headers: { cookie: buyer.cookie } })).status,
    ).toBe(403);
    expect((await t.request('/api/invoices/month/2026-12.csv')).status).toBe(401);
  });
});

describe('the monthly CSV and CSV injection', () => {
  it('writes a buyer’s legal name that a `;` spreadsheet would split into a formula as one neutralised cell (issue 35)', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    // The attack: unquoted, a `;`-splitting spreadsheet made "=cmd|…" a cell of its own.
    await buy(ev, 1, {
      ...DETAILS,
      buyerGstin: '27AAPFU0939F1ZV',
      buyerLegalName: "Verma;=cmd|' /C calc'!A0",
      buyerAddress: '4 MG Road, Pune 411001',
    });
    const res = await t.request('/api/invoices/month/2026-11.csv', { headers: { cookie: organiser.cookie } });
    expect(res.status).toBe(200);
    const rows = (await res.text()).trim().split('\r\n');
    expect(rows[1]).toBe(
      `B2B,INV/26-27/000001,2026-11-21,27AAPFU0939F1ZV,"Verma;'=cmd|' /C calc'!A0",27-Maharashtra,18,1000.00,0.00,90.00,90.00,0.00,1180.00,`,
    );
    // However the row is split, by `,` or by `;`, no piece starts a formula.
    for (const piece of rows[1]!.split(/[,;]/)) expect(piece.replace(/^"+/, '')).not.toMatch(/^[=+\-@]/);
  });
});

describe('adding a GSTIN after buying', () => {
  it('re-issues the invoice with the GSTIN (credit note + new number) until the end of its month', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await organiserWithEvent({
      types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 20 }],
    });
    const { buyer, bookingId } = await buy(ev, 1);
    const [original] = await invoicesOf(bookingId);
    const add = (cookie: string, id = bookingId) =>
      callProcedure(
        t,
        'mutation',
        'invoices.addBuyerGstin',
        {
          bookingId: id,
          buyerGstin: '29aagcb7383j1z4',
          buyerLegalName: 'Verma Consulting',
          buyerAddress: '4 MG Road, Pune 411001',
        },
        { cookie },
      );

    expect((await add((await signedInUser(t)).cookie)).status).toBe(404);
    const res = await add(buyer.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all = await invoicesOf(bookingId);
    expect(all).toHaveLength(2);
    expect(all.find((i) => i.id === original!.id)).toEqual(original);
    const replacement = all.find((i) => i.id !== original!.id)!;
    expect(replacement).toMatchObject({
      number: 'INV/26-27/000002',
      buyerGstin: '29AAGCB7383J1Z4',
      buyerLegalName: 'Verma Consulting',
      cgstPaise: original!.cgstPaise,
      totalPaise: original!.totalPaise,
    });
    expect(await creditNotesNow()).toMatchObject([
      { invoiceId: original!.id, number: 'CRN/26-27/000001', totalPaise: original!.totalPaise },
    ]);
    expect((await add(buyer.cookie)).body.error?.message).toBe(GSTIN_ALREADY_GIVEN);

    // A booking whose invoice was issued in November is final in December.
    const late = await buy(ev, 1);
    t.clock.set(new Date('2026-11-30T18:30:00Z'));
    const refused = await add(late.buyer.cookie, late.bookingId);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(GSTIN_TOO_LATE);
    expect(await invoicesOf(late.bookingId)).toHaveLength(1);
  });
});

const SETTLE_WORKER = new URL('../helpers/settle-worker.ts', import.meta.url).href;
const TSX_API = import.meta.resolve('tsx/esm/api');

/** Runs settle-worker.ts on its own thread (loaded through tsx, as the PDF worker is). */
function settleInWorker(
  dataDir: string,
  orders: { orderId: string; paymentId: string }[],
  amountPaise: number,
): Promise<string[]> {
  const bootstrap = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((api) => api.tsImport(workerData.entry, workerData.entry));
`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, {
      eval: true,
      workerData: { tsx: TSX_API, entry: SETTLE_WORKER, dataDir, orders, amountPaise },
    });
    worker.once('message', (answer: { outcomes?: string[]; error?: string }) =>
      answer.outcomes ? resolve(answer.outcomes) : reject(new Error(answer.error)),
    );
    worker.once('error', reject);
  });
}

/**
 * On PostgreSQL, a server of its own: the test app's deps on a second pool on the same database (as
 * engine-app.test.ts's second app instance) settle the given orders at once.
 */
async function settleOnPool(orders: { orderId: string; paymentId: string }[], amountPaise: number) {
  const pool = await openPostgres(t.deps.env.DATABASE_URL!, { poolSize: 4 });
  try {
    const deps = composeDeps({ ...t.deps, db: pool as unknown as Db });
    const outcomes = await Promise.all(
      orders.map((o) => settlePayment(deps, o.orderId, o.paymentId, { amountPaise, source: 'webhook' })),
    );
    return outcomes.map((o) => o.outcome as string);
  } finally {
    await pool.$client.end();
  }
}
