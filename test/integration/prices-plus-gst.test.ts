import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GST_MESSAGES, organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { account, type Person, signedInUser } from '../helpers/engine-fixtures.ts';
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

/** An organiser (registered when `gstin` is given) with a ₹750 concert in Mumbai. */
async function organiserWithEvent(gstin: string): Promise<{ organiser: Person; ev: TicketedEvent }> {
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
    types: [{ name: 'Gold', pricePaise: 75_000, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return { organiser, ev };
}

function choose(organiser: Person, ev: TicketedEvent, taxInclusive: boolean | null) {
  return callProcedure(
    t,
    'mutation',
    'invoices.setEventTaxRate',
    { eventId: ev.eventId, taxRate: null, taxInclusive },
    { cookie: organiser.cookie },
  );
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
