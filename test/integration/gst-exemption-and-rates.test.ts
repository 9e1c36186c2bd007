import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventCategory } from '../../shared/categories.ts';
import { EXEMPT_WORDING, NIL_RATED_WORDING } from '../../shared/gst.ts';
import { GST_MESSAGES, organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { account, buy } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { readZip } from '../helpers/zip-entries.ts';

/**
 * Issue 36, items 2, 9 and 10: the ₹500 exemption only for the kinds entry 81 of Notification
 * 12/2017-CT(R) lists (the organiser may say the kind where the category cannot), rates from the
 * schedule in force (40 % since 22 September 2025), and CGST = SGST on inclusive prices. A Maharashtra
 * organiser's Mumbai events (intra-state); every figure worked by hand, in paise.
 */
const NO_PLATFORM_GST = { SEED_DEMO_DATA: 'false' } as const;
const PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
};

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function mumbaiEvent(category: EventCategory, pricePaise: number) {
  const organiser = await account(t, 'organiser');
  await saveOrganiserProfile(
    t.deps.db,
    platformGstOf(t.deps.env),
    organiser.userId,
    organiserProfileSchema.parse(PROFILE),
    t.clock.now(),
  );
  const ev = await createTicketedEventOn(t.deps.db, {
    city: 'Mumbai',
    types: [{ name: 'Seat', pricePaise, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db
    .update(events)
    .set({ ownerId: organiser.userId, category })
    .where(eq(events.id, ev.eventId));
  const setGst = (settings: object) =>
    callProcedure(
      t,
      'mutation',
      'invoices.setEventTaxRate',
      { eventId: ev.eventId, taxRate: null, ...settings },
      { cookie: organiser.cookie },
    );
  return { organiser, ev, setGst };
}

async function admissionInvoiceOf(ev: TicketedEvent) {
  const { buyer, bookingId } = await buy(t, ev, 1, { ticketDetails: DETAILS });
  const { invoices } = tablesOf(t.deps.db);
  const invoice = (await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId))).find(
    (i) => i.kind === 'admission',
  )!;
  const res = await t.request(`/api/invoices/${invoice.id}.pdf`, { headers: { cookie: buyer.cookie } });
  expect(res.status).toBe(200);
  return { invoice, pdf: pdfPageText(Buffer.from(await res.arrayBuffer())) };
}

describe('the ₹500 exemption (entry 81) by kind of event', () => {
  it('a ₹499 workshop is taxed: 422.88 + CGST 38.06 + SGST 38.06', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await mumbaiEvent('workshops', 49_900);
    // Workshops are not in entry 81. 499.00 / 1.18 = 422.8813 → 422.88; tax 76.12 (even) → 38.06 each.
    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      documentType: 'tax_invoice',
      taxableValuePaise: 42_288,
      cgstPaise: 3_806,
      sgstPaise: 3_806,
      igstPaise: 0,
      totalPaise: 49_900,
    });
    expect(invoice.lines[0]).toMatchObject({ kind: 'intra', taxRatePercent: 18 });
    expect(invoice.notes).not.toContain(EXEMPT_WORDING);
    expect(pdf).toContain(
      'Taxable value Rs. 422.88; CGST 9% Rs. 38.06; SGST 9% Rs. 38.06; amount Rs. 499.00',
    );
    expect(pdf).not.toContain('Exempt');
  });

  it('a ₹499 concert is exempt: 499.00, no tax', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await mumbaiEvent('concerts', 49_900);
    const { invoice } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      taxableValuePaise: 49_900,
      cgstPaise: 0,
      sgstPaise: 0,
      totalPaise: 49_900,
    });
    expect(invoice.lines[0]).toMatchObject({ kind: 'exempt', taxRatePercent: 0 });
    expect(invoice.notes).toContain(EXEMPT_WORDING);
  });

  it('a ₹1,000 workshop at 0 % is nil-rated, not exempt: a bill of supply without entry 81, Nil Rated in GSTR-1', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev, setGst, organiser } = await mumbaiEvent('workshops', 100_000);
    expect((await setGst({ taxRate: 0 })).status).toBe(200);
    // 1 × 1000.00 at 0 %: taxable 1000.00, no tax, total 1000.00. Workshops are not in entry 81 (and
    // ₹1,000 is above ₹500 anyway), so the supply is nil-rated: no GST, and no exemption to cite.
    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      documentType: 'bill_of_supply',
      taxableValuePaise: 100_000,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 100_000,
    });
    expect(invoice.notes[0]).toBe(NIL_RATED_WORDING);
    expect(invoice.notes).not.toContain(EXEMPT_WORDING);
    expect(invoice.lines[0]).toMatchObject({ kind: 'nil', taxRatePercent: 0 });
    expect(pdf).toContain('Taxable value Rs. 1,000.00; Nil rated (GST 0%); amount Rs. 1,000.00');
    expect(pdf).not.toContain('entry 81');
    expect(pdf).not.toContain('Exempt');
    // GSTR-1 table 8 (exemp.csv): intra-state to an unregistered buyer, 1000.00 under Nil Rated, 0 exempt.
    const ist = new Date(new Date(invoice.issuedAt).getTime() + 330 * 60_000).toISOString().slice(0, 7);
    const zip = await t.request(`/api/invoices/gstr1/${ist}.zip`, { headers: { cookie: organiser.cookie } });
    expect(zip.status).toBe(200);
    const exemp = readZip(new Uint8Array(await zip.arrayBuffer()))
      .get('exemp.csv')!
      .toString('utf8');
    expect(exemp.split('\r\n')).toContain('Intra-State supplies to unregistered persons,1000.00,0.00,0.00');
    // The monthly CSV totals it as 'Nil rated', not 'Exempt'.
    const month = await t.request(`/api/invoices/month/${ist}.csv`, {
      headers: { cookie: organiser.cookie },
    });
    const rows = (await month.text()).split('\r\n');
    expect(rows.some((r) => r.startsWith('Nil rated,') && r.includes(',1000.00,'))).toBe(true);
    expect(rows.some((r) => r.startsWith('Exempt,'))).toBe(false);
  });

  it('the organiser says the kind where the category cannot: a comedy night that is theatre, a show that is not', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    // Comedy defaults to 'other' (not listed): a ₹499 ticket would be taxed. Marked theatre: exempt.
    const comedy = await mumbaiEvent('comedy', 49_900);
    expect((await comedy.setGst({ admissionKind: 'theatre' })).status).toBe(200);
    expect((await admissionInvoiceOf(comedy.ev)).invoice.lines[0]).toMatchObject({ kind: 'exempt' });
    // A "show" defaults to theatre; marked 'other' (say, an exhibition) the ₹499 is taxed as the workshop.
    const show = await mumbaiEvent('shows', 49_900);
    expect((await show.setGst({ admissionKind: 'other' })).status).toBe(200);
    expect((await admissionInvoiceOf(show.ev)).invoice).toMatchObject({
      taxableValuePaise: 42_288,
      cgstPaise: 3_806,
      sgstPaise: 3_806,
    });
    expect((await show.setGst({ admissionKind: 'magic' })).status).toBe(400);
  });

  it('tax-exclusive prices: the checkout adds GST to a ₹499 workshop (89.82) and none to a ₹499 concert', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const exclusive = { ...PROFILE, taxInclusive: false };
    for (const [category, added] of [
      // 499.00 × 9 % = 44.91 per head, CGST + SGST = 89.82.
      ['workshops', 8_982],
      ['concerts', 0],
    ] as const) {
      const { organiser, ev } = await mumbaiEvent(category, 49_900);
      await saveOrganiserProfile(
        t.deps.db,
        null,
        organiser.userId,
        organiserProfileSchema.parse(exclusive),
        t.clock.now(),
      );
      const { session } = await buy(t, ev, 1, { ticketDetails: DETAILS });
      expect(session).toMatchObject({ subtotalPaise: 49_900, admissionTaxPaise: added });
    }
  });
});

describe('rates from the schedule in force', () => {
  it('a 40 % admission (e.g. an IPL-type match): ₹3,500 incl is 2,500 + CGST 20 % 500 + SGST 20 % 500', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev, setGst } = await mumbaiEvent('sports', 350_000);
    // 28 % left the schedule on 22 September 2025; 40 % joined it.
    const refused = await setGst({ taxRate: 28 });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(GST_MESSAGES.taxRate);
    expect((await setGst({ taxRate: 40 })).status).toBe(200);
    // 3500.00 / 1.40 = 2500.00; tax 1000.00 → 500.00 + 500.00.
    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      taxableValuePaise: 250_000,
      cgstPaise: 50_000,
      sgstPaise: 50_000,
      totalPaise: 350_000,
    });
    expect(invoice.lines[0]).toMatchObject({ taxRatePercent: 40 });
    expect(pdf).toContain('CGST 20% Rs. 500.00; SGST 20% Rs. 500.00');
  });

  it('an invoice keeps the rate it was issued at when the event’s rate changes later', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev, setGst } = await mumbaiEvent('sports', 118_000);
    const first = await admissionInvoiceOf(ev);
    expect((await setGst({ taxRate: 40 })).status).toBe(200);
    await admissionInvoiceOf(ev);
    const { invoices } = tablesOf(t.deps.db);
    const [stored] = await t.deps.db.select().from(invoices).where(eq(invoices.id, first.invoice.id));
    // ₹1,180 at 18 %: 1000.00 + 90.00 + 90.00, as issued.
    expect(stored!.lines[0]).toMatchObject({ taxRatePercent: 18, cgstPaise: 9_000, sgstPaise: 9_000 });
  });
});

describe('CGST and SGST are equal on inclusive prices', () => {
  it('₹999 incl: the odd paisa goes to the taxable value, 846.62 + 76.19 + 76.19 = 999.00', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { ev } = await mumbaiEvent('concerts', 99_900);
    // 999.00 / 1.18 = 846.6102 → 846.61; tax 152.39 is odd: halves would be 76.20 and 76.19. One paisa
    // moves from tax to the taxable value: 846.62 taxable, 152.38 tax = 76.19 + 76.19; total 999.00.
    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      taxableValuePaise: 84_662,
      cgstPaise: 7_619,
      sgstPaise: 7_619,
      totalPaise: 99_900,
    });
    expect(pdf).toContain('CGST: Rs. 76.19');
    expect(pdf).toContain('SGST: Rs. 76.19');
  });
});
