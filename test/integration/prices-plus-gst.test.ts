import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GST_MESSAGES, organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { account, type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import { fanWaitingForTheLastSeat, offerBooked, payOffer, returnTheSeat } from '../helpers/gst-sale-gate.ts';
import { createTicketedEventOn, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 40, "Prices plus GST": the organiser chooses per event whether ticket prices include GST or
 * have it added at checkout; only a GST-registered organiser may add it; buyers see "+ GST" from the
 * event's card and page, and the all-in total before payment.
 */
const PLATFORM_GST = {
  SEED_DEMO_DATA: 'false' as const,
  PLATFORM_GSTIN: '29AAGCB7383J1Z4',
  PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
  PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
};
const PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
};
const GSTIN = '27AAPFU0939F1ZV';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function taxInclusiveOf(eventId: string) {
  const { events } = tablesOf(t.deps.db);
  const [event] = await t.deps.db.select().from(events).where(eq(events.id, eventId));
  return event!.taxInclusive;
}

/** An organiser (registered when `gstin` is given) with a concert in Mumbai, ₹750 unless `pricePaise`. */
async function organiserWithEvent(
  gstin: string,
  pricePaise = 75_000,
): Promise<{ organiser: Person; ev: TicketedEvent }> {
  const organiser = await account(t, 'organiser');
  await saveOrganiserProfile(
    t.deps.db,
    platformGstOf(t.deps.env),
    organiser.userId,
    organiserProfileSchema.parse({ ...PROFILE, gstin }),
    t.clock.now(),
  );
  const ev = await createTicketedEventOn(t.deps.db, {
    city: 'Mumbai',
    types: [{ name: 'Gold', pricePaise, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return { organiser, ev };
}

/** The event editor's GST settings through the real procedure (its rate is always sent). */
function setTax(
  organiser: Person,
  ev: TicketedEvent,
  settings: { taxRate: number | null; taxInclusive?: boolean | null; admissionKind?: string },
) {
  return callProcedure(
    t,
    'mutation',
    'invoices.setEventTaxRate',
    { eventId: ev.eventId, ...settings },
    { cookie: organiser.cookie },
  );
}

function choose(organiser: Person, ev: TicketedEvent, taxInclusive: boolean | null) {
  return setTax(organiser, ev, { taxRate: null, taxInclusive });
}

/** The booking, its admission invoice and the sum of all its invoices' totals. */
async function invoicesOf(bookingId: string) {
  const { bookings, invoices } = tablesOf(t.deps.db);
  const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
  const issued = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId));
  return {
    booking: booking!,
    admission: issued.find((i) => i.kind === 'admission')!,
    sum: issued.reduce((sum, i) => sum + i.totalPaise, 0),
  };
}

async function publicView(ev: TicketedEvent) {
  const detail = await callProcedure(t, 'query', 'events.byId', { id: ev.eventId });
  const list = await callProcedure(t, 'query', 'events.list', {});
  const options = await callProcedure(t, 'query', 'tickets.options', { eventId: ev.eventId });
  const card = (list.data as { id: string; pricesPlusGst: boolean }[]).find((e) => e.id === ev.eventId);
  return {
    page: (detail.data as { pricesPlusGst: boolean }).pricesPlusGst,
    card: card?.pricesPlusGst,
    ticketTaxRate: (options.data as { taxes: { admissionTaxRatePercent: number | null } }).taxes
      .admissionTaxRatePercent,
  };
}

describe('prices plus GST, chosen per event', () => {
  it('a registered organiser’s ₹750 + 18 % GST ticket: the buyer sees "+ GST" and pays ₹885 + fee', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent(GSTIN);
    // The profile's default (prices include GST) until the event says otherwise.
    expect(await publicView(ev)).toEqual({ page: false, card: false, ticketTaxRate: null });

    expect((await choose(organiser, ev, false)).status).toBe(200);
    expect(await publicView(ev)).toEqual({ page: true, card: true, ticketTaxRate: 18 });

    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1);
    // By hand: ticket 750.00; GST 18 % on it 135.00 (CGST 67.50 + SGST 67.50, Mumbai in Maharashtra):
    // 885.00 per ticket. Fee 5 % of the ticket price 37.50, its IGST 18 % 6.75. Total 929.25.
    expect(session).toMatchObject({
      subtotalPaise: 75_000,
      admissionTaxPaise: 13_500,
      feePaise: 3_750,
      igstPaise: 675,
      amountPaise: 92_925,
    });
    const res = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    const bookingId = (res.data as { bookingId: string }).bookingId;
    const { bookings, invoices } = tablesOf(t.deps.db);
    const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(booking!.totalAmountPaise).toBe(92_925);
    const admission = (await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId))).find(
      (i) => i.kind === 'admission',
    )!;
    // The organiser's invoice: taxable 750.00 with GST 135.00 on top.
    expect(admission).toMatchObject({ taxInclusive: false, totalPaise: 88_500 });

    // Back to "prices include GST": the buyer pays the ticket price as shown.
    expect((await choose(organiser, ev, true)).status).toBe(200);
    expect(await publicView(ev)).toEqual({ page: false, card: false, ticketTaxRate: null });
  });

  it('is refused for an organiser without a GSTIN, with a message saying why', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent('');
    const res = await choose(organiser, ev, false);
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(GST_MESSAGES.plusGstNeedsGstin);
    expect(res.body.error?.data.fieldErrors).toEqual({ taxInclusive: GST_MESSAGES.plusGstNeedsGstin });
    expect(await taxInclusiveOf(ev.eventId)).toBeNull();
    expect(await publicView(ev)).toEqual({ page: false, card: false, ticketTaxRate: null });
    // Prices that include GST are still theirs to state.
    expect((await choose(organiser, ev, true)).status).toBe(200);
  });

  it('another organiser’s event is NOT_FOUND and stays as it was', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev } = await organiserWithEvent(GSTIN);
    const { organiser: other } = await organiserWithEvent(GSTIN);
    const res = await choose(other, ev, false);
    expect(res.status).toBe(404);
    expect(await taxInclusiveOf(ev.eventId)).toBeNull();
  });
});

/**
 * The organiser edits the event's GST while a buyer is paying (issue: invoices must add up to what the
 * buyer paid): the hold was priced with the rate and exemption of Proceed, and its invoice is computed
 * from those, kept on the hold and the booking, not from the event's settings at confirmation.
 */
describe('prices plus GST, changed while the buyer pays', () => {
  it('₹1,000 + 18 % quoted, the event moved to 5 % before the payment: invoiced at 18 %, adding up to ₹1,239', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent(GSTIN, 100_000);
    expect((await setTax(organiser, ev, { taxRate: 18, taxInclusive: false })).status).toBe(200);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1);
    // By hand: ticket 1000.00 + GST 18 % 180.00; fee 5 % 50.00 + its IGST 18 % 9.00. Total 1239.00.
    expect(session).toMatchObject({ admissionTaxPaise: 18_000, amountPaise: 123_900 });

    expect((await setTax(organiser, ev, { taxRate: 5 })).status).toBe(200);
    const res = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    const { booking, admission, sum } = await invoicesOf((res.data as { bookingId: string }).bookingId);
    expect(booking).toMatchObject({
      totalAmountPaise: 123_900,
      admissionTaxRatePercent: 18,
      admissionExemptionApplies: true,
    });
    // 1000.00 + CGST 9 % 90.00 + SGST 9 % 90.00, not 1000.00 + 5 % = 1050.00.
    expect(admission).toMatchObject({
      taxInclusive: false,
      taxableValuePaise: 100_000,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
      totalPaise: 118_000,
    });
    expect(admission.lines.map((l) => [l.kind, l.taxRatePercent])).toEqual([['intra', 18]]);
    // The organiser's invoice and the platform's (59.00) add up to exactly what was paid.
    expect(sum).toBe(123_900);

    // The next buyer is quoted (and invoiced at) the new 5 %: 1000.00 + 50.00.
    const next = await signedInUser(t);
    const second = await proceed(t, next.cookie, ev, 1);
    expect(second).toMatchObject({ admissionTaxPaise: 5_000, amountPaise: 110_900 });
    const paid = await confirm(t, next.cookie, await payWithSimulator(t, second.orderId));
    const later = await invoicesOf((paid.data as { bookingId: string }).bookingId);
    expect(later.admission).toMatchObject({ totalPaise: 105_000 });
    expect(later.sum).toBe(110_900);
  });

  it('₹400 + 18 % quoted as a workshop, the kind changed to a concert (exempt at ₹500) before the payment: still 18 %', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent(GSTIN, 40_000);
    expect(
      (await setTax(organiser, ev, { taxRate: 18, taxInclusive: false, admissionKind: 'other' })).status,
    ).toBe(200);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1);
    // By hand: ticket 400.00 + GST 18 % 72.00 (entry 81 does not exempt a workshop); fee 20.00 + 3.60.
    expect(session).toMatchObject({ admissionTaxPaise: 7_200, amountPaise: 49_560 });

    expect((await setTax(organiser, ev, { taxRate: 18, admissionKind: 'concert' })).status).toBe(200);
    const res = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    const { booking, admission, sum } = await invoicesOf((res.data as { bookingId: string }).bookingId);
    expect(booking).toMatchObject({ admissionTaxRatePercent: 18, admissionExemptionApplies: false });
    // Taxed as quoted, not exempt: 400.00 + CGST 36.00 + SGST 36.00.
    expect(admission).toMatchObject({
      documentType: 'tax_invoice',
      taxInclusive: false,
      cgstPaise: 3_600,
      sgstPaise: 3_600,
      totalPaise: 47_200,
    });
    expect(admission.lines.map((l) => [l.kind, l.taxRatePercent])).toEqual([['intra', 18]]);
    expect(sum).toBe(49_560);
  });

  it('a waiting-list offer priced at 18 %, the event moved to 5 % before the fan pays: invoiced at 18 %', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent(GSTIN, 100_000);
    expect((await setTax(organiser, ev, { taxRate: 18, taxInclusive: false })).status).toBe(200);
    const { first, fan, entryId } = await fanWaitingForTheLastSeat(t, ev);
    // The organiser cancels the first booking: its seat is offered to the fan, held and priced now.
    await returnTheSeat(t, ev, organiser, first.bookingId);

    expect((await setTax(organiser, ev, { taxRate: 5 })).status).toBe(200);
    const paid = await payOffer(t, fan, entryId);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const bookingId = await offerBooked(t, fan, paid);
    const { booking, admission, sum } = await invoicesOf(bookingId);
    // The offer's price: 1000.00 + 180.00, fee 50.00 + 9.00.
    expect(booking).toMatchObject({ totalAmountPaise: 123_900, admissionTaxRatePercent: 18 });
    expect(admission).toMatchObject({ taxInclusive: false, totalPaise: 118_000 });
    expect(admission.lines.map((l) => l.taxRatePercent)).toEqual([18]);
    expect(sum).toBe(123_900);
  });

  it('a hold from before the quote was kept (columns null) is invoiced at the event’s settings, as before', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { organiser, ev } = await organiserWithEvent(GSTIN, 100_000);
    expect((await setTax(organiser, ev, { taxRate: 18, taxInclusive: false })).status).toBe(200);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1);
    // A hold taken by the release before this one, paid after the upgrade: nothing quoted on its row.
    const { holds } = tablesOf(t.deps.db);
    const quoted = await t.deps.db
      .update(holds)
      .set({ admissionTaxRatePercent: null, admissionExemptionApplies: null })
      .where(eq(holds.userId, buyer.userId))
      .returning({ rate: holds.admissionTaxRatePercent });
    expect(quoted).toEqual([{ rate: null }]);

    const res = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    const { booking, admission, sum } = await invoicesOf((res.data as { bookingId: string }).bookingId);
    expect(booking).toMatchObject({ admissionTaxRatePercent: null, admissionExemptionApplies: null });
    // The event's 18 % read at confirmation, as before the quote was kept.
    expect(admission).toMatchObject({ taxInclusive: false, totalPaise: 118_000 });
    expect(admission.lines.map((l) => l.taxRatePercent)).toEqual([18]);
    expect(sum).toBe(123_900);
  });
});
