import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { GST_MESSAGES, organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { account, buy, type Person } from '../helpers/engine-fixtures.ts';
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
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 36, item 9: a rate saved before the schedule of 22 September 2025 (12 or 28 %) on an event or an
 * organiser profile must not go on a new invoice. Such a row is made here as a database from before the
 * change holds it: by a direct update, since the editor and the profile refuse those rates today. The
 * editor and the publish checklist say so, publishing and new sales are refused, a payment already in
 * flight is still booked and invoiced at the rate it was quoted, and issued invoices keep their rate.
 * A Maharashtra organiser's Mumbai match (intra-state); every figure worked by hand, in paise.
 */
const NO_PLATFORM_GST = { SEED_DEMO_DATA: 'false' } as const;
const PROFILE = {
  legalName: 'Tala Collective LLP',
  address: '12 Hill Road, Bandra, Mumbai 400050',
  state: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV',
};
/** ₹1,280 incl.: at 28 %, 1,000.00 + CGST 140.00 + SGST 140.00 (the other rates worked where used). */
const PRICE = 128_000;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function mumbaiMatch(status: 'published' | 'draft' = 'published') {
  const organiser = await account(t, 'organiser');
  await saveOrganiserProfile(
    t.deps.db,
    null,
    organiser.userId,
    organiserProfileSchema.parse(PROFILE),
    t.clock.now(),
  );
  const ev = await createTicketedEventOn(t.deps.db, {
    city: 'Mumbai',
    types: [{ name: 'Stand', pricePaise: PRICE, totalTickets: 20 }],
    now: t.clock.now(),
  });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db
    .update(events)
    .set({
      ownerId: organiser.userId,
      category: 'sports',
      status,
      posterUrl: '/images/events/sufi-nights-delhi-poster.webp',
    })
    .where(eq(events.id, ev.eventId));
  return { organiser, ev };
}

/** What a database from before 22 September 2025 may hold: a rate the schedule then had. */
async function storedEventRate(ev: TicketedEvent, taxRate: number) {
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ taxRate }).where(eq(events.id, ev.eventId));
}

async function storedProfileDefault(organiser: Person, defaultTaxRate: number) {
  const { organiserProfiles } = tablesOf(t.deps.db);
  await t.deps.db
    .update(organiserProfiles)
    .set({ defaultTaxRate })
    .where(eq(organiserProfiles.userId, organiser.userId));
}

async function holdsOf(buyer: Person) {
  const { holds } = tablesOf(t.deps.db);
  return t.deps.db
    .select()
    .from(holds)
    .where(and(eq(holds.userId, buyer.userId), eq(holds.status, 'active')));
}

const editable = (ev: TicketedEvent, organiser: Person) => editableGstOf(t, ev, organiser);

async function publish(ev: TicketedEvent, organiser: Person) {
  const { events } = tablesOf(t.deps.db);
  const [{ version }] = (await t.deps.db
    .select({ version: events.version })
    .from(events)
    .where(eq(events.id, ev.eventId))) as [{ version: number }];
  return callProcedure(t, 'mutation', 'organiser.publish', { eventId: ev.eventId, version }, organiser);
}

const setRate = (ev: TicketedEvent, organiser: Person, taxRate: number | null) =>
  callProcedure(
    t,
    'mutation',
    'invoices.setEventTaxRate',
    { eventId: ev.eventId, taxRate },
    { cookie: organiser.cookie },
  );

async function admissionInvoiceOf(bookingId: string, cookie: string) {
  const { invoices } = tablesOf(t.deps.db);
  const invoice = (await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId))).find(
    (i) => i.kind === 'admission',
  )!;
  const res = await t.request(`/api/invoices/${invoice.id}.pdf`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return { invoice, pdf: pdfPageText(Buffer.from(await res.arrayBuffer())) };
}

describe('a rate stored before 22 September 2025 is not used for new invoices', () => {
  it('an event at 28 %: flagged in the editor, not published, not sold; at 40 % it sells: 914.30 + 182.85 + 182.85', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await mumbaiMatch('draft');
    await storedEventRate(ev, 28);

    // The editor says which rate is out of the schedule, and the publish checklist refuses it.
    expect(await editable(ev, organiser)).toMatchObject({
      ticketSaleGstProblem: { kind: 'rateNotInForce', ratePercent: 28 },
    });
    const refused = await publish(ev, organiser);
    expect(refused.status).toBe(200);
    expect(refused.data).toEqual({ published: false, missing: [GST_MESSAGES.rateNotInForce(28)] });
    expect(GST_MESSAGES.rateNotInForce(28)).toContain('0, 5, 18, 40 %');

    // Published anyway (as it was before the change): Proceed is refused, no seat is held.
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ status: 'published' }).where(eq(events.id, ev.eventId));
    const { buyer, res } = await tryProceed(t, ev);
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe(GST_MESSAGES.saleRateNotInForce);
    expect(await holdsOf(buyer)).toEqual([]);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 20, held: 0 });

    // The organiser chooses 40 % (an IPL-type match): the flag goes, and the ticket sells at 40 %.
    expect((await setRate(ev, organiser, 40)).status).toBe(200);
    expect(await editable(ev, organiser)).toMatchObject({ ticketSaleGstProblem: null });
    // 1280.00 / 1.40 = 914.2857 → 914.29; tax 365.71 is odd: 914.30 + 182.85 + 182.85 = 1280.00.
    const { bookingId, buyer: payer } = await buy(t, ev, 1, { ticketDetails: DETAILS });
    const { invoice } = await admissionInvoiceOf(bookingId, payer.cookie);
    expect(invoice).toMatchObject({
      taxableValuePaise: 91_430,
      cgstPaise: 18_285,
      sgstPaise: 18_285,
      totalPaise: PRICE,
    });
    expect(invoice.lines[0]).toMatchObject({ taxRatePercent: 40 });
  });

  it('a profile default of 12 % with no event rate: not sold until the event (or the profile) has a current rate', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await mumbaiMatch();
    await storedProfileDefault(organiser, 12);
    expect(await editable(ev, organiser)).toMatchObject({
      ticketSaleGstProblem: { kind: 'rateNotInForce', ratePercent: 12 },
    });
    const { res } = await tryProceed(t, ev);
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe(GST_MESSAGES.saleRateNotInForce);
    // The organiser's own sale at the door is invoiced too: refused, with what to do.
    const door = await cashDoorSale(t, ev, organiser);
    expect(door.status).toBe(409);
    expect(door.body.error?.message).toBe(GST_MESSAGES.rateNotInForce(12));
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 20, sold: 0 });

    expect((await setRate(ev, organiser, 18)).status).toBe(200);
    // 1280.00 / 1.18 = 1084.7458 → 1084.75; tax 195.25 is odd: 1084.76 + 97.62 + 97.62 = 1280.00.
    const { bookingId, buyer } = await buy(t, ev, 1, { ticketDetails: DETAILS });
    const { invoice } = await admissionInvoiceOf(bookingId, buyer.cookie);
    expect(invoice).toMatchObject({ taxableValuePaise: 108_476, cgstPaise: 9_762, sgstPaise: 9_762 });
    expect(invoice.lines[0]).toMatchObject({ taxRatePercent: 18 });
  });

  it('a payment in flight across midnight of 21–22 September 2025 is booked and invoiced at the 28 % it was quoted; the next Proceed is refused; the invoice keeps 28 %', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    // 23:57 India time on 21 September 2025: 28 % is still in force.
    t.clock.set(new Date('2025-09-21T18:27:00.000Z'));
    const { organiser, ev } = await mumbaiMatch();
    await storedEventRate(ev, 28);
    const buyer = await account(t);
    const session = await proceed(t, buyer.cookie, ev, 1, { ticketDetails: DETAILS });

    // 00:03 on 22 September: the buyer pays the hold taken at 23:57. The payment is booked, not refunded.
    t.clock.advance(6 * 60_000);
    const paid = await payWithSimulator(t, session.orderId);
    const confirmed = await confirm(t, buyer.cookie, paid);
    expect(confirmed.data).toMatchObject({ outcome: 'booked' });
    const { bookingId } = confirmed.data as { bookingId: string };
    // 1280.00 / 1.28 = 1000.00; tax 280.00 → CGST 14 % 140.00 + SGST 14 % 140.00.
    const issued = await admissionInvoiceOf(bookingId, buyer.cookie);
    expect(issued.invoice).toMatchObject({
      taxableValuePaise: 100_000,
      cgstPaise: 14_000,
      sgstPaise: 14_000,
      totalPaise: PRICE,
    });
    expect(issued.pdf).toContain('CGST 14% Rs. 140.00; SGST 14% Rs. 140.00');

    // A new sale at 28 % is refused from now on, and the organiser is told why.
    const { res } = await tryProceed(t, ev);
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe(GST_MESSAGES.saleRateNotInForce);
    expect(await editable(ev, organiser)).toMatchObject({
      ticketSaleGstProblem: { kind: 'rateNotInForce', ratePercent: 28 },
    });

    // The organiser moves to 40 %; the invoice already issued keeps its 28 %.
    expect((await setRate(ev, organiser, 40)).status).toBe(200);
    await buy(t, ev, 1, { ticketDetails: DETAILS });
    const { invoices } = tablesOf(t.deps.db);
    const [stored] = await t.deps.db.select().from(invoices).where(eq(invoices.id, issued.invoice.id));
    expect(stored!.lines[0]).toMatchObject({ taxRatePercent: 28, cgstPaise: 14_000, sgstPaise: 14_000 });
  });

  it('an organiser not registered for GST charges none: a 28 % left on the event stops nothing', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await mumbaiMatch();
    const { gstin: _gstin, ...unregistered } = PROFILE;
    await saveOrganiserProfile(
      t.deps.db,
      null,
      organiser.userId,
      organiserProfileSchema.parse(unregistered),
      t.clock.now(),
    );
    await storedEventRate(ev, 28);
    expect(await editable(ev, organiser)).toMatchObject({ ticketSaleGstProblem: null });
    await buy(t, ev, 1, { ticketDetails: DETAILS });
  });

  it('a waiting-list offer made on a stale rate cannot be paid until the organiser chooses a current one', async () => {
    t = await createTestAppOn(testEngine(), NO_PLATFORM_GST);
    const { organiser, ev } = await mumbaiMatch();
    const { first, fan, entryId } = await fanWaitingForTheLastSeat(t, ev);
    await storedEventRate(ev, 28);
    // The organiser cancels the first booking: its seat is offered to the fan (a hold in their name).
    await returnTheSeat(t, ev, organiser, first.bookingId);
    const pay = () => payOffer(t, fan, entryId);
    const refused = await pay();
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe(GST_MESSAGES.saleRateNotInForce);

    expect((await setRate(ev, organiser, 18)).status).toBe(200);
    const paid = await pay();
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await offerBooked(t, fan, paid);
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({
      available: 0,
      held: 0,
      sold: 1,
    });
  });
});
