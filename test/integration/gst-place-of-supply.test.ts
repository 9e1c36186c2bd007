import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GST_MESSAGES } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { account, buy, type Person, teamMember } from '../helpers/engine-fixtures.ts';
import {
  cashDoorSale,
  editableGstOf,
  fanWaitingForTheLastSeat,
  offerBooked,
  payOffer,
  returnTheSeat,
  tryProceed,
} from '../helpers/gst-sale-gate.ts';
import { countOfOn, createTicketedEventOn, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 36, items 1 and 8: the place of supply of admission is where the event is held (IGST Act
 * s.12(6)), the venue's state the organiser states in the editor (the city alone says Delhi for all of
 * Delhi/NCR and Chandigarh for the whole tricity); a union territory without a legislature levies UTGST.
 * Every figure worked by hand, in paise; the PDFs read as text.
 */
const NO_PLATFORM_GST = { SEED_DEMO_DATA: 'false' } as const;

/** Valid GSTINs (mod-36 check character worked out) of one PAN in Delhi, Punjab and Chandigarh. */
const DL_GSTIN = '07AAPFU0939F1ZX';
const PB_GSTIN = '03AAPFU0939F1Z5';
const CH_GSTIN = '04AAPFU0939F1Z3';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** The event's current version (every console edit carries it). */
async function versionOf(eventId: string): Promise<number> {
  const { events } = tablesOf(t.deps.db);
  const [event] = await t.deps.db.select({ v: events.version }).from(events).where(eq(events.id, eventId));
  return event!.v;
}

async function organiserIn(state: string, gstin: string): Promise<Person> {
  const organiser = await account(t, 'organiser');
  await saveTaxProfile(t, organiser.userId, {
    legalName: 'Tala Collective LLP',
    address: '12 Hill Road',
    state,
    gstin,
  });
  return organiser;
}

async function eventOf(organiser: Person, city: string, pricePaise: number): Promise<TicketedEvent> {
  const ev = await createTicketedEventOn(t.deps.db, {
    city,
    types: [{ name: 'Gold', pricePaise, totalTickets: 20 }],
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId));
  return ev;
}

/** The event editor's GST section, through its procedure. */
function setGst(organiser: Person, ev: TicketedEvent, settings: object) {
  return callProcedure(
    t,
    'mutation',
    'invoices.setEventTaxRate',
    { eventId: ev.eventId, taxRate: null, ...settings },
    { cookie: organiser.cookie },
  );
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

describe('the venue’s state is the place of supply', () => {
  it('a DL organiser’s Gurugram show: IGST 1,080 on 6,000, place of supply Haryana', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await organiserIn('Delhi', DL_GSTIN);
    // ₹7,080 incl 18 %: 7080 / 1.18 = 6000.00 taxable, 1080.00 tax. Gurugram is in Haryana, the
    // organiser in Delhi: inter-state, all IGST (before: CGST 540 + SGST 540, place of supply Delhi).
    const ev = await eventOf(organiser, 'Delhi/NCR', 708_000);
    expect((await setGst(organiser, ev, { venueState: 'Haryana' })).status).toBe(200);

    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      placeOfSupply: 'Haryana',
      taxableValuePaise: 600_000,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 108_000,
      totalPaise: 708_000,
      stateTaxHead: null,
    });
    expect(pdf).toContain('Place of supply: Haryana (06)');
    expect(pdf).toContain('IGST: Rs. 1,080.00');
    expect(pdf).toContain('Taxable value: Rs. 6,000.00');
    expect(pdf).not.toContain('CGST');
  });

  it('a Mohali show of a Punjab organiser is intra-state in Punjab: CGST 90 + SGST 90', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await organiserIn('Punjab', PB_GSTIN);
    // Listed under 'Chandigarh', held in Mohali (Punjab). ₹1,180 incl: 1000.00 + 90.00 + 90.00
    // (before: place of supply Chandigarh, IGST 180.00).
    const ev = await eventOf(organiser, 'Chandigarh', 118_000);
    expect((await setGst(organiser, ev, { venueState: 'Punjab' })).status).toBe(200);

    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      placeOfSupply: 'Punjab',
      taxableValuePaise: 100_000,
      cgstPaise: 9_000,
      sgstPaise: 9_000,
      igstPaise: 0,
      stateTaxHead: null,
    });
    expect(pdf).toContain('Place of supply: Punjab (03)');
    expect(pdf).toContain('SGST: Rs. 90.00');
    expect(pdf).not.toContain('UTGST');
  });

  it('the editor must be told the state where the city spans states, and only one of the city’s', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await organiserIn('Delhi', DL_GSTIN);
    const ev = await eventOf(organiser, 'Delhi/NCR', 118_000);
    const editable = await callProcedure(
      t,
      'query',
      'organiser.editableEvent',
      { eventId: ev.eventId },
      {
        cookie: organiser.cookie,
      },
    );
    expect(editable.data).toMatchObject({
      venueState: null,
      venueStates: ['Delhi', 'Haryana', 'Uttar Pradesh'],
      admissionKind: null,
      defaultAdmissionKind: 'concert',
    });

    const none = await setGst(organiser, ev, { venueState: null });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain(GST_MESSAGES.venueStateRequired);
    const elsewhere = await setGst(organiser, ev, { venueState: 'Maharashtra' });
    expect(elsewhere.status).toBe(400);
    expect(JSON.stringify(elsewhere.body)).toContain(GST_MESSAGES.venueStateInvalid);
    // Another organiser's event answers as if it did not exist.
    const stranger = await account(t, 'organiser');
    expect((await setGst(stranger, ev, { venueState: 'Haryana' })).status).toBe(404);
    const { events } = tablesOf(t.deps.db);
    expect(
      await t.deps.db.select({ s: events.venueState }).from(events).where(eq(events.id, ev.eventId)),
    ).toEqual([{ s: null }]);

    // Publishing waits for the state.
    await t.deps.db.update(events).set({ status: 'draft' }).where(eq(events.id, ev.eventId));
    const publish = async () =>
      callProcedure(
        t,
        'mutation',
        'organiser.publish',
        { eventId: ev.eventId, version: await versionOf(ev.eventId) },
        { cookie: organiser.cookie },
      );
    const refused = await publish();
    expect(JSON.stringify(refused.body)).toContain(GST_MESSAGES.venueStateRequired);
    expect((await setGst(organiser, ev, { venueState: 'Uttar Pradesh' })).status).toBe(200);
    const published = await publish();
    expect(JSON.stringify(published.body)).not.toContain(GST_MESSAGES.venueStateRequired);
    // A co-organiser who may edit the event may set it too.
    const co = await account(t, 'organiser');
    await teamMember(t, ev.eventId, co.userId, 'co_organiser');
    expect((await setGst(co, ev, { venueState: 'Haryana' })).status).toBe(200);
  });
});

/** What a database from before the venue's state was asked for holds: a published event without one. */
async function publishedWithoutVenueState(ev: TicketedEvent) {
  const { events } = tablesOf(t.deps.db);
  await t.deps.db
    .update(events)
    .set({ status: 'published', venueState: null })
    .where(eq(events.id, ev.eventId));
}

const editableOf = (ev: TicketedEvent, organiser: Person) => editableGstOf(t, ev, organiser);

describe('an event published in Delhi/NCR or Chandigarh before the venue’s state was asked for', () => {
  const NOT_SET = GST_MESSAGES.venueStateNotSet('Delhi/NCR');

  it('a registered organiser’s: no sale (Proceed, door) until the state is chosen; then Haryana, IGST 152.54 on 847.46', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await organiserIn('Delhi', DL_GSTIN);
    const ev = await eventOf(organiser, 'Delhi/NCR', 100_000);
    await publishedWithoutVenueState(ev);

    // Proceed: refused before any hold (not invoiced CGST + SGST with Delhi as the place of supply).
    const { res, held } = await tryProceed(t, ev);
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe(NOT_SET);
    expect(held).toEqual([]);
    // The organiser's own sale at the door is invoiced too: refused, with the same message.
    const door = await cashDoorSale(t, ev, organiser);
    expect(door.status).toBe(409);
    expect(door.body.error?.message).toBe(NOT_SET);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({
      available: 20,
      held: 0,
      sold: 0,
    });
    // The organiser is told why sales stopped (the editor's GST section and the publish section).
    expect(await editableOf(ev, organiser)).toMatchObject({
      ticketSaleGstProblem: { kind: 'venueStateNotSet', city: 'Delhi/NCR' },
    });

    // The organiser states the venue is in Haryana (Gurugram), through the editor's procedure.
    expect((await setGst(organiser, ev, { venueState: 'Haryana' })).status).toBe(200);
    expect(await editableOf(ev, organiser)).toMatchObject({ ticketSaleGstProblem: null });
    // ₹1,000 incl. 18 %, DL organiser, venue in Haryana: inter-state. 1000 / 1.18 = 847.4576 → 847.46
    // taxable; IGST 1000.00 − 847.46 = 152.54 (18 % of 847.46 = 152.5428 → 152.54).
    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      placeOfSupply: 'Haryana',
      taxableValuePaise: 84_746,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 15_254,
      totalPaise: 100_000,
    });
    expect(pdf).toContain('Place of supply: Haryana (06)');
    expect(pdf).toContain('IGST: Rs. 152.54');
    expect(pdf).not.toContain('CGST');
  });

  it('a waiting-list offer on such an event cannot be paid until the state is chosen', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await organiserIn('Delhi', DL_GSTIN);
    const ev = await eventOf(organiser, 'Delhi/NCR', 100_000);
    // Sold out while the venue was stated (Delhi), so a fan joins the waiting list.
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ venueState: 'Delhi' }).where(eq(events.id, ev.eventId));
    const { first, fan, entryId } = await fanWaitingForTheLastSeat(t, ev);
    await publishedWithoutVenueState(ev);
    // The organiser cancels the first booking: its seat is offered to the fan.
    await returnTheSeat(t, ev, organiser, first.bookingId);
    const pay = () => payOffer(t, fan, entryId);
    const refused = await pay();
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe(NOT_SET);

    expect((await setGst(organiser, ev, { venueState: 'Haryana' })).status).toBe(200);
    const paid = await pay();
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await offerBooked(t, fan, paid);
  });

  it('a payment already under way is booked, as with a stale rate; the next Proceed is refused', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await organiserIn('Delhi', DL_GSTIN);
    const ev = await eventOf(organiser, 'Delhi/NCR', 118_000);
    // The hold is taken while the event still sells (here: its state stated), then the state is gone,
    // as for a hold taken on the old release and paid on the new one.
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ venueState: 'Delhi' }).where(eq(events.id, ev.eventId));
    const buyer = await account(t);
    const session = await proceed(t, buyer.cookie, ev, 1, { ticketDetails: DETAILS });
    await publishedWithoutVenueState(ev);
    const confirmed = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    expect(confirmed.data).toMatchObject({ outcome: 'booked' });
    const { res } = await tryProceed(t, ev);
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe(NOT_SET);
  });

  it('an unregistered organiser charges no GST: the same event still sells', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await account(t, 'organiser');
    await saveTaxProfile(t, organiser.userId, {
      legalName: 'Tala Collective',
      address: '12 Hill Road',
      state: 'Delhi',
    });
    const ev = await eventOf(organiser, 'Delhi/NCR', 100_000);
    await publishedWithoutVenueState(ev);
    expect(await editableOf(ev, organiser)).toMatchObject({ ticketSaleGstProblem: null });
    await buy(t, ev, 1, { ticketDetails: DETAILS });
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ sold: 1 });
  });
});

describe('UTGST in a union territory without a legislature', () => {
  it('a Chandigarh organiser’s Chandigarh show: CGST 90 + UTGST 90, in the PDF and both CSVs', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const organiser = await organiserIn('Chandigarh', CH_GSTIN);
    // ₹1,180 incl: 1000.00 taxable, 180.00 tax → CGST 9 % 90.00 + UTGST 9 % 90.00 (not SGST).
    const ev = await eventOf(organiser, 'Chandigarh', 118_000);
    expect((await setGst(organiser, ev, { venueState: 'Chandigarh' })).status).toBe(200);

    const { invoice, pdf } = await admissionInvoiceOf(ev);
    expect(invoice).toMatchObject({
      placeOfSupply: 'Chandigarh',
      stateTaxHead: 'UTGST',
      taxableValuePaise: 100_000,
      cgstPaise: 9_000,
      // The stored state-level half, under the head the invoice names.
      sgstPaise: 9_000,
      igstPaise: 0,
      totalPaise: 118_000,
    });
    expect(pdf).toContain('Place of supply: Chandigarh (04)');
    expect(pdf).toContain('CGST 9% Rs. 90.00; UTGST 9% Rs. 90.00');
    expect(pdf).toContain('UTGST: Rs. 90.00');
    expect(pdf).not.toContain('SGST');

    // The accountant's month (the test clock is in November 2026): the B2C total under UTGST.
    const month = await t.request('/api/invoices/month/2026-11.csv', {
      headers: { cookie: organiser.cookie },
    });
    const [header, ...rows] = (await month.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const cols = header!.split(',');
    const b2c = Object.fromEntries(rows[0]!.split(',').map((v, i) => [cols[i], v]));
    expect(b2c).toMatchObject({
      Section: 'B2C',
      'Place of supply': '04-Chandigarh',
      'CGST (INR)': '90.00',
      'SGST (INR)': '0.00',
      'UTGST (INR)': '90.00',
    });

    const orders = await t.request(`/api/organiser/events/${ev.eventId}/orders.csv`, {
      headers: { cookie: organiser.cookie },
    });
    expect(orders.status).toBe(200);
    const [oHeader, oRow] = (await orders.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const oCols = oHeader!.split(',');
    const order = Object.fromEntries(oRow!.split(',').map((v, i) => [oCols[i], v]));
    expect(order).toMatchObject({ 'CGST (INR)': '90.00', 'SGST (INR)': '0.00', 'UTGST (INR)': '90.00' });
  });
});
