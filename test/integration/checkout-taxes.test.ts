import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { FEE_NOT_TAXED_NOTE } from '../../src-server/services/invoices/issue-booking-invoices.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { account, mailOn, signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, type TicketedEvent, type TicketTypeSpec } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * How Proceed taxes a checkout (issue 16, ADR 0024): GST on the convenience fee only when the platform
 * is registered; admission GST on top of tax-exclusive prices. Everything through the real procedures:
 * the ticket options the checkout previews with, Proceed, the simulator's payment, confirmation, and
 * the invoices and mail it issues.
 */
const PLATFORM_GST = {
  PLATFORM_GSTIN: '29AAGCB7383J1Z4',
  PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
  PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
};
/** No registration: demo data, which brings the demo's registration, is off. */
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

async function organiserEvent(types: TicketTypeSpec[], profile: object = {}) {
  const organiser = await account(t, 'organiser');
  await saveOrganiserProfile(
    t.deps.db,
    platformGstOf(t.deps.env),
    organiser.userId,
    organiserProfileSchema.parse({ ...PROFILE, ...profile }),
    t.clock.now(),
  );
  const ev = await createTicketedEventOn(t.deps.db, { types, city: 'Mumbai' });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return ev;
}

async function taxesOf(ev: TicketedEvent) {
  const res = await callProcedure(t, 'query', 'tickets.options', { eventId: ev.eventId });
  expect(res.status).toBe(200);
  return (res.data as { taxes: unknown }).taxes;
}

/** Proceed with the given quantities per ticket type, pay and confirm. */
async function buy(ev: TicketedEvent, quantities: number[]) {
  const buyer = await signedInUser(t);
  const selectedTickets = quantities
    .map((quantity, i) => ({ ticketTypeId: ev.ticketTypeIds[i]!, quantity }))
    .filter((line) => line.quantity > 0);
  const session = await proceed(t, buyer.cookie, ev, 1, { selectedTickets });
  const paid = await payWithSimulator(t, session.orderId);
  const res = await confirm(t, buyer.cookie, paid);
  expect(res.data).toMatchObject({ outcome: 'booked' });
  const bookingId = (res.data as { bookingId: string }).bookingId;
  const { bookings, paymentOrders, invoices } = tablesOf(t.deps.db);
  const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
  const [order] = await t.deps.db.select().from(paymentOrders).where(eq(paymentOrders.id, session.orderId));
  const issued = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId));
  const mail = (await mailOn(t, `booking-confirmed:${bookingId}`))!;
  return { buyer, session, booking: booking!, order: order!, issued, mail };
}

describe('GST on the convenience fee', () => {
  it('is not charged when the platform has no GST registration, and every document says so', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const ev = await organiserEvent([{ name: 'Gold', pricePaise: 99_999, totalTickets: 20 }]);
    expect(await taxesOf(ev)).toEqual({
      feeTaxRatePercent: 0,
      admissionTaxRatePercent: null,
      admissionInvoiceRatePercent: 18,
      admissionExemptionApplies: true,
      admissionIntraState: true,
      feeSupplierState: null,
    });

    const { session, booking, order, issued, mail } = await buy(ev, [2]);
    // 2 × 999.99 = 1999.98; fee 5 % = 99.999 → 100.00; no GST on it: 2099.98.
    expect(session).toMatchObject({
      subtotalPaise: 199_998,
      admissionTaxPaise: 0,
      feePaise: 10_000,
      igstPaise: 0,
      feeTaxRatePercent: 0,
      amountPaise: 209_998,
    });
    expect(order.amountPaise).toBe(209_998);
    expect(booking).toMatchObject({ feeAmountPaise: 10_000, igstAmountPaise: 0, totalAmountPaise: 209_998 });
    // Only the organiser's invoice; it states the fee was not charged with tax.
    expect(issued.map((i) => i.kind)).toEqual(['admission']);
    expect(issued[0]!.notes).toContain(FEE_NOT_TAXED_NOTE('₹100.00'));
    expect(issued[0]!.totalPaise).toBe(199_998);
    expect(mail.text).toContain('Booking fee (not charged with tax): ₹100.00');
    expect(mail.text).not.toContain('IGST');
  });

  it('is 18 % with a registration, invoiced by the platform; the two invoices add up to the amount paid', async () => {
    t = await createTestAppOn(testEngine(), { ...NO_PLATFORM_GST, ...PLATFORM_GST });
    const ev = await organiserEvent([{ name: 'Gold', pricePaise: 99_999, totalTickets: 20 }]);
    expect(await taxesOf(ev)).toEqual({
      feeTaxRatePercent: 18,
      admissionTaxRatePercent: null,
      admissionInvoiceRatePercent: 18,
      admissionExemptionApplies: true,
      admissionIntraState: true,
      feeSupplierState: 'Karnataka',
    });

    const { session, booking, issued, mail } = await buy(ev, [2]);
    // 1999.98 + fee 100.00 + IGST 18.00 (the spec's breakdown).
    expect(session).toMatchObject({ igstPaise: 1_800, feeTaxRatePercent: 18, amountPaise: 211_798 });
    expect(booking.igstAmountPaise).toBe(1_800);
    expect(issued.map((i) => i.kind).sort()).toEqual(['admission', 'platform_fee']);
    expect(issued.reduce((sum, i) => sum + i.totalPaise, 0)).toBe(211_798);
    expect(issued.find((i) => i.kind === 'admission')!.notes.join(' ')).not.toContain('not charged with tax');
    expect(mail.text).toContain('Booking fee (incl. IGST 18%): ₹118.00');
  });
});

describe('tax-exclusive prices', () => {
  it('add the admission GST at Proceed, line by line, and the invoice shows it as exclusive', async () => {
    t = await createTestAppOn(testEngine(), { ...NO_PLATFORM_GST, ...PLATFORM_GST });
    const ev = await organiserEvent(
      [
        { name: 'Gold', pricePaise: 100_000, totalTickets: 20 },
        { name: 'Couple', pricePaise: 100_000, totalTickets: 20, personAllowedPerTicket: 2 },
        { name: 'Floor', pricePaise: 50_001, totalTickets: 20 },
      ],
      { taxInclusive: false },
    );
    expect(await taxesOf(ev)).toEqual({
      feeTaxRatePercent: 18,
      admissionTaxRatePercent: 18,
      admissionInvoiceRatePercent: 18,
      admissionExemptionApplies: true,
      admissionIntraState: true,
      feeSupplierState: 'Karnataka',
    });

    const { buyer, session, booking, order, issued, mail } = await buy(ev, [3, 1, 1]);
    // By hand: Gold 3 × 1000.00 = 3000.00 → GST 540.00; Couple 1000.00 for two (₹500 a person) is
    // exempt → 0; Floor 500.01 → 90.0018 → 90.00. Subtotal 4500.01, GST on tickets 630.00;
    // fee 5 % of 4500.01 = 225.0005 → 225.00, IGST 40.50. Paid 4500.01 + 630.00 + 225.00 + 40.50 = 5395.51.
    expect(session).toMatchObject({
      subtotalPaise: 450_001,
      admissionTaxPaise: 63_000,
      feePaise: 22_500,
      igstPaise: 4_050,
      amountPaise: 539_551,
    });
    expect(order.amountPaise).toBe(539_551);
    expect(booking).toMatchObject({ subtotalAmountPaise: 450_001, totalAmountPaise: 539_551 });

    const admission = issued.find((i) => i.kind === 'admission')!;
    expect(admission).toMatchObject({
      taxInclusive: false,
      // Mumbai venue, Maharashtra organiser: CGST + SGST.
      taxableValuePaise: 450_001,
      cgstPaise: 31_500,
      sgstPaise: 31_500,
      igstPaise: 0,
      totalPaise: 513_001,
    });
    expect(admission.lines.map((l) => [l.kind, l.taxableValuePaise, l.cgstPaise + l.sgstPaise])).toEqual([
      ['intra', 300_000, 54_000],
      ['exempt', 100_000, 0],
      ['intra', 50_001, 9_000],
    ]);
    // The organiser's invoice and the platform's add up to exactly what was paid.
    expect(issued.reduce((sum, i) => sum + i.totalPaise, 0)).toBe(539_551);
    expect(mail.text).toContain('GST on tickets (prices exclude GST): ₹630.00');
    expect(mail.text).toContain('Total paid: ₹5,395.51');
    // The PDF the buyer downloads says the GST came on top of the prices.
    const pdf = await t.request(`/api/invoices/${admission.id}.pdf`, { headers: { cookie: buyer.cookie } });
    const text = pdfPageText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('GST is charged in addition to the price.');
    expect(text).toContain('Invoice total: Rs. 5,130.01');
  });

  it('add nothing when every line is exempt, nor for an organiser who is not registered', async () => {
    t = await createTestAppOn(testEngine(), { ...NO_PLATFORM_GST, ...PLATFORM_GST });
    const exempt = await organiserEvent([{ name: 'Entry', pricePaise: 50_000, totalTickets: 20 }], {
      taxInclusive: false,
    });
    const first = await buy(exempt, [2]);
    // 2 × 500.00 = 1000.00, exempt; fee 50.00 + IGST 9.00.
    expect(first.session).toMatchObject({ admissionTaxPaise: 0, amountPaise: 105_900 });
    expect(first.issued.find((i) => i.kind === 'admission')).toMatchObject({
      taxInclusive: false,
      totalPaise: 100_000,
    });

    const unregistered = await organiserEvent([{ name: 'Gold', pricePaise: 100_000, totalTickets: 20 }], {
      gstin: '',
      taxInclusive: false,
    });
    expect(await taxesOf(unregistered)).toMatchObject({
      feeTaxRatePercent: 18,
      admissionTaxRatePercent: null,
    });
    const second = await buy(unregistered, [1]);
    expect(second.session).toMatchObject({ admissionTaxPaise: 0, amountPaise: 100_000 + 5_000 + 900 });
  });
});
