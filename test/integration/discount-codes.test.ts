import { eq, isNotNull } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGES, DISCOUNT_REFUSALS } from '../../shared/discount-schemas.ts';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, consoleWorld, mailOn, signedInUser } from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  DETAILS,
  expectInventoryInvariantOn,
  type TicketedEvent,
  type TicketTypeSpec,
} from '../helpers/inventory.ts';
import { pdfPageText } from '../helpers/pdf-text.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Discount codes (issue 40) through the real procedures: the organiser's console creates them, the
 * checkout's quote and Proceed price with them on the server, the hold takes a use in its write
 * transaction, confirmation carries the discount onto the booking and its GST invoice, and a release or
 * a cancellation gives the use back.
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
  gstin: '27AAPFU0939F1ZV',
};

const CODE = {
  kind: 'percent',
  percentOff: null,
  amountOffPaise: null,
  ticketTypeIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: null,
  maxUsesPerBuyer: null,
};

let t: TestApp;
afterEach(async () => {
  if (t) await expectInventoryInvariantOn(t.deps.db);
  await t?.close();
});

async function organiserEvent(types: TicketTypeSpec[], profile: object = {}) {
  const owner = await account(t, 'organiser');
  await saveOrganiserProfile(
    t.deps.db,
    platformGstOf(t.deps.env),
    owner.userId,
    organiserProfileSchema.parse({ ...PROFILE, ...profile }),
    t.clock.now(),
  );
  const ev = await createTicketedEventOn(t.deps.db, { types, city: 'Mumbai' });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId));
  return { ev, owner };
}

async function createCode(ev: TicketedEvent, cookie: string, code: object) {
  return callProcedure(
    t,
    'mutation',
    'console.createDiscountCode',
    { eventId: ev.eventId, code: { ...CODE, ...code } },
    { cookie },
  );
}

async function codeOf(ev: TicketedEvent, cookie: string, code: object): Promise<string> {
  const res = await createCode(ev, cookie, code);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.data as { id: string }).id;
}

function selection(ev: TicketedEvent, quantities: number[]) {
  return quantities
    .map((quantity, i) => ({ ticketTypeId: ev.ticketTypeIds[i]!, quantity }))
    .filter((line) => line.quantity > 0);
}

function start(ev: TicketedEvent, cookie: string, quantities: number[], discountCode?: string) {
  return callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: selection(ev, quantities),
      ticketDetails: DETAILS,
      discountCode,
    },
    { cookie },
  );
}

function quote(ev: TicketedEvent, cookie: string, quantities: number[], discountCode: string) {
  return callProcedure(
    t,
    'query',
    'payments.quoteDiscount',
    {
      eventId: ev.eventId,
      selectedSlot: ev.slotId,
      selectedTickets: selection(ev, quantities),
      discountCode,
    },
    { cookie },
  );
}

async function buy(ev: TicketedEvent, cookie: string, quantities: number[], discountCode?: string) {
  const res = await start(ev, cookie, quantities, discountCode);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const session = res.data as CheckoutSession;
  const confirmed = await confirm(t, cookie, await payWithSimulator(t, session.orderId));
  expect(confirmed.data).toMatchObject({ outcome: 'booked' });
  const bookingId = (confirmed.data as { bookingId: string }).bookingId;
  const { bookings, invoices } = tablesOf(t.deps.db);
  const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
  const issued = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId));
  return { session, booking: booking!, issued };
}

async function usesOf(id: string): Promise<number> {
  const { discountCodes } = tablesOf(t.deps.db);
  const [code] = await t.deps.db
    .select({ uses: discountCodes.uses })
    .from(discountCodes)
    .where(eq(discountCodes.id, id));
  return code!.uses;
}

/** The holds that took a use of a code. */
async function holdsWithACode() {
  const { holds } = tablesOf(t.deps.db);
  return t.deps.db.select().from(holds).where(isNotNull(holds.discountCodeId));
}

describe('pricing with a code', () => {
  it('takes a percentage off each ticket before GST and fee, and the invoice taxes the discounted price', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev, owner } = await organiserEvent([{ name: 'Gold', pricePaise: 100_000, totalTickets: 20 }], {
      taxInclusive: false,
    });
    await codeOf(ev, owner.cookie, { code: 'Diwali20', kind: 'percent', percentOff: 20 });
    const buyer = await signedInUser(t);

    // By hand: 2 × ₹1,000.00, 20 % off each = ₹200.00 → ₹800.00 a ticket (over ₹500: taxed).
    // Subtotal 1,600.00; GST 18 % on top 288.00; fee 5 % of 1,600.00 = 80.00, its IGST 14.40.
    // Total 1,600.00 + 288.00 + 80.00 + 14.40 = 1,982.40. Without the code: 2,478.00.
    const quoted = await quote(ev, buyer.cookie, [2], 'diwali20'); // case-insensitive
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    expect(quoted.data).toMatchObject({
      code: 'Diwali20',
      discountPaise: 40_000,
      lines: [{ discountPerTicketPaise: 20_000, quantity: 2 }],
      price: {
        subtotalPaise: 160_000,
        admissionTaxPaise: 28_800,
        feePaise: 8_000,
        igstPaise: 1_440,
        grandTotalPaise: 198_240,
      },
    });

    const { session, booking, issued } = await buy(ev, buyer.cookie, [2], 'DIWALI20');
    expect(session).toMatchObject({
      discountCode: 'Diwali20',
      discountPaise: 40_000,
      subtotalPaise: 160_000,
      admissionTaxPaise: 28_800,
      feePaise: 8_000,
      igstPaise: 1_440,
      amountPaise: 198_240,
    });
    expect(booking).toMatchObject({
      discountCode: 'Diwali20',
      discountPaise: 40_000,
      subtotalAmountPaise: 160_000,
      feeAmountPaise: 8_000,
      totalAmountPaise: 198_240,
    });
    const admission = issued.find((i) => i.kind === 'admission')!;
    // The line keeps the list price and shows the discount; its taxable value is the discounted price.
    expect(admission.lines).toEqual([
      expect.objectContaining({
        unitPricePaise: 100_000,
        discountPerTicketPaise: 20_000,
        discountCode: 'Diwali20',
        quantity: 2,
        kind: 'intra',
        taxableValuePaise: 160_000,
        cgstPaise: 14_400,
        sgstPaise: 14_400,
        totalPaise: 188_800,
      }),
    ]);
    expect((await mailOn(t, `booking-confirmed:${booking.id}`))!.text).toContain(
      'Discount (code Diwali20): -₹400.00\nSubtotal: ₹1,600.00',
    );
    // The two invoices add up to what was paid.
    expect(issued.reduce((sum, i) => sum + i.totalPaise, 0)).toBe(198_240);
    // The PDF shows the discount under its line, before the taxable value.
    const pdf = await t.request(`/api/invoices/${admission.id}.pdf`, { headers: { cookie: buyer.cookie } });
    expect(pdf.status).toBe(200);
    const text = pdfPageText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain('Less discount (code Diwali20): 2 x Rs. 200.00 = Rs. 400.00');
    expect(text).toContain('Taxable value Rs. 1,600.00');

    // The sales dashboard and the orders export name the code, its uses and what it gave away.
    const dashboard = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      {
        cookie: owner.cookie,
      },
    );
    expect((dashboard.data as { discountCodes: unknown[] }).discountCodes).toEqual([
      expect.objectContaining({ code: 'Diwali20', uses: 1, bookings: 1, discountPaise: 40_000 }),
    ]);
    const csv = await (
      await t.request(`/api/organiser/events/${ev.eventId}/orders.csv`, { headers: { cookie: owner.cookie } })
    ).text();
    const [header, row] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(
      header!.endsWith(
        'Discount code,Discount per ticket (INR),Discount (INR),Add-ons,Add-ons (INR),Channel',
      ),
    ).toBe(true);
    // Then the add-on columns (ADR 0041), empty without add-ons, and the box office's Channel (ADR 0042).
    expect(row!.endsWith('Diwali20,200.00,400.00,,,online')).toBe(true);
  });

  it('takes a fixed amount off the chosen types only; the ₹500 exemption is judged on the price charged', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev, owner } = await organiserEvent([
      { name: 'Stalls', pricePaise: 60_000, totalTickets: 20 },
      { name: 'Balcony', pricePaise: 40_000, totalTickets: 20 },
    ]);
    await codeOf(ev, owner.cookie, {
      code: 'FAN150',
      kind: 'fixed',
      amountOffPaise: 15_000,
      ticketTypeIds: [ev.ticketTypeIds[0]],
    });
    const buyer = await signedInUser(t);

    // Only Balcony chosen: the code is not for it.
    const wrong = await quote(ev, buyer.cookie, [0, 1], 'fan150');
    expect(wrong.status).toBe(409);
    expect(wrong.body.error?.message).toBe(DISCOUNT_REFUSALS.notForTickets);

    // By hand: Stalls 3 × (600.00 − 150.00) = 1,350.00; Balcony 1 × 400.00 (no discount).
    // Subtotal 1,750.00; prices include GST; fee 5 % = 87.50, IGST 15.75. Total 1,853.25.
    const { session, issued } = await buy(ev, buyer.cookie, [3, 1], 'fan150');
    expect(session).toMatchObject({
      discountPaise: 45_000,
      subtotalPaise: 175_000,
      admissionTaxPaise: 0,
      feePaise: 8_750,
      igstPaise: 1_575,
      amountPaise: 185_325,
    });
    // Stalls at ₹450 a person is exempt (what is charged is the consideration), though listed at ₹600.
    const admission = issued.find((i) => i.kind === 'admission')!;
    expect(admission.lines[0]).toMatchObject({
      unitPricePaise: 60_000,
      discountPerTicketPaise: 15_000,
      kind: 'exempt',
      taxableValuePaise: 135_000,
      totalPaise: 135_000,
    });
    expect(admission.lines[1]).not.toHaveProperty('discountPerTicketPaise');
    expect(admission.totalPaise).toBe(175_000);
  });
});

describe('limits', () => {
  it('keeps to its validity window', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev, owner } = await organiserEvent([{ name: 'Gold', pricePaise: 100_000, totalTickets: 20 }]);
    const now = t.clock.now().getTime();
    await codeOf(ev, owner.cookie, {
      code: 'LATER',
      percentOff: 10,
      validFrom: new Date(now + 3_600_000).toISOString(),
    });
    await codeOf(ev, owner.cookie, {
      code: 'EARLY',
      percentOff: 10,
      validUntil: new Date(now + 60_000).toISOString(),
    });
    const buyer = await signedInUser(t);
    expect((await quote(ev, buyer.cookie, [1], 'later')).body.error?.message).toBe(
      DISCOUNT_REFUSALS.notYetValid,
    );
    expect((await quote(ev, buyer.cookie, [1], 'early')).status).toBe(200);
    t.clock.advance(120_000);
    const expired = await start(ev, buyer.cookie, [1], 'early');
    expect(expired.body.error?.message).toBe(DISCOUNT_REFUSALS.expired);
    expect((await quote(ev, buyer.cookie, [1], 'nosuch')).body.error?.message).toBe(
      DISCOUNT_REFUSALS.unknown,
    );
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 20, held: 0 });
  });

  it('allows one buyer only their limit; a replaced unpaid hold gives its use back first', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev, owner } = await organiserEvent([{ name: 'Gold', pricePaise: 100_000, totalTickets: 20 }]);
    const id = await codeOf(ev, owner.cookie, { code: 'ONCE', percentOff: 10, maxUsesPerBuyer: 1 });
    const buyer = await signedInUser(t);
    // Proceed twice (the first attempt abandoned): the second replaces the first and may use the code.
    expect((await start(ev, buyer.cookie, [1], 'once')).status).toBe(200);
    expect(await usesOf(id)).toBe(1);
    await buy(ev, buyer.cookie, [2], 'once');
    expect(await usesOf(id)).toBe(1);
    const again = await start(ev, buyer.cookie, [1], 'ONCE');
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(DISCOUNT_REFUSALS.alreadyUsed);
    // Another buyer still may.
    expect((await start(ev, (await signedInUser(t)).cookie, [1], 'once')).status).toBe(200);
  });

  it('gives the use back when the hold is released unpaid and when the booking is cancelled', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev, owner } = await organiserEvent([{ name: 'Gold', pricePaise: 100_000, totalTickets: 20 }]);
    const id = await codeOf(ev, owner.cookie, { code: 'LAST', percentOff: 50, maxUses: 1 });
    const first = await signedInUser(t);
    const second = await signedInUser(t);

    const held = await start(ev, first.cookie, [1], 'last');
    expect(await usesOf(id)).toBe(1);
    expect((await start(ev, second.cookie, [1], 'last')).body.error?.message).toBe(DISCOUNT_REFUSALS.usedUp);
    const release = await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: (held.data as CheckoutSession).holdId, reason: 'cancelled' },
      { cookie: first.cookie },
    );
    expect(release.data).toEqual({ released: true });
    expect(await usesOf(id)).toBe(0);

    const { booking } = await buy(ev, second.cookie, [1], 'last');
    expect(await usesOf(id)).toBe(1);
    expect((await start(ev, first.cookie, [1], 'last')).body.error?.message).toBe(DISCOUNT_REFUSALS.usedUp);
    const listed = await callProcedure(
      t,
      'query',
      'console.discountCodes',
      { eventId: ev.eventId },
      {
        cookie: owner.cookie,
      },
    );
    expect(listed.data).toEqual([
      expect.objectContaining({ code: 'LAST', uses: 1, bookings: 1, discountPaise: 50_000 }),
    ]);

    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId: booking.id },
      { cookie: owner.cookie },
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await usesOf(id)).toBe(0);
    expect((await holdsWithACode()).every((d) => d.discountReturnedAt !== null)).toBe(true);
    expect((await start(ev, first.cookie, [1], 'last')).status).toBe(200);
  });
});

describe('the last use under concurrency', () => {
  it('50 buyers racing for the last use: exactly one gets it, the rest are told it is used up', async () => {
    // One in-process address for all: the per-address caps are off, as in the inventory race.
    t = await createTestAppOn(testEngine(), { ...PLATFORM_GST, HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent([{ name: 'Gold', pricePaise: 100_000, totalTickets: 100 }]);
    const id = await codeOf(ev, owner.cookie, { code: 'RUSH', percentOff: 30, maxUses: 2 });
    await buy(ev, (await signedInUser(t)).cookie, [1], 'rush'); // one use gone: one left
    const buyers = await Promise.all(Array.from({ length: 50 }, () => signedInUser(t)));
    const results = await Promise.all(buyers.map((b) => start(ev, b.cookie, [1], 'rush')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.body.error?.message).toBe(DISCOUNT_REFUSALS.usedUp);
    }
    expect(await usesOf(id)).toBe(2);
    expect(await holdsWithACode()).toHaveLength(2);
    // The refused buyers' seats were never taken.
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 98 });
  });
});

describe('bad input', () => {
  it('refuses a negative amount, 101 %, a 50,000-character code and a duplicate, with clear messages', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const { ev, owner } = await organiserEvent([{ name: 'Gold', pricePaise: 100_000, totalTickets: 20 }]);
    const negative = await createCode(ev, owner.cookie, { code: 'NEG', kind: 'fixed', amountOffPaise: -100 });
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.body)).toContain(DISCOUNT_MESSAGES.amountPositive);
    const over = await createCode(ev, owner.cookie, { code: 'ALL', percentOff: 101 });
    expect(over.status).toBe(400);
    expect(JSON.stringify(over.body)).toContain(DISCOUNT_MESSAGES.percentRange);
    const long = await createCode(ev, owner.cookie, { code: 'x'.repeat(50_000), percentOff: 10 });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain(DISCOUNT_MESSAGES.codeLong);
    const otherEventType = (await createTicketedEventOn(t.deps.db)).ticketTypeIds[0];
    const foreign = await createCode(ev, owner.cookie, {
      code: 'X',
      percentOff: 10,
      ticketTypeIds: [otherEventType],
    });
    expect(foreign.body.error?.message).toBe(DISCOUNT_MESSAGES.typeUnknown);
    await codeOf(ev, owner.cookie, { code: 'Summer', percentOff: 10 });
    const twin = await createCode(ev, owner.cookie, { code: 'SUMMER', percentOff: 20 });
    expect(twin.status).toBe(409);
    expect(twin.body.error?.message).toBe(DISCOUNT_MESSAGES.codeTaken);

    const buyer = await signedInUser(t);
    const huge = await start(ev, buyer.cookie, [1], 'x'.repeat(50_000));
    expect(huge.status).toBe(400);
    expect(JSON.stringify(huge.body)).toContain(DISCOUNT_REFUSALS.unknown);
    const hugeQuote = await quote(ev, buyer.cookie, [1], 'x'.repeat(50_000));
    expect(hugeQuote.status).toBe(400);
    expect(JSON.stringify(hugeQuote.body)).toContain(DISCOUNT_REFUSALS.unknown);
  });
});

describe('who may not', () => {
  it('lets the owner and a co-organiser manage codes; gate staff may not; another organiser is told not found', async () => {
    t = await createTestAppOn(testEngine(), PLATFORM_GST);
    const w = await consoleWorld(t);
    const ok = await createCode(w.event, w.people['co-organiser'].cookie, { code: 'CO', percentOff: 5 });
    expect(ok.status).toBe(200);
    const id = (ok.data as { id: string }).id;

    const gate = await createCode(w.event, w.people['gate staff'].cookie, { code: 'GATE', percentOff: 5 });
    expect(gate.status).toBe(403);
    const other = await createCode(w.event, w.people['organiser of another event'].cookie, {
      code: 'OTHER',
      percentOff: 5,
    });
    expect(other.status).toBe(404);
    // Their own event, our code's id: not found either, and nothing changed.
    const sideways = await callProcedure(
      t,
      'mutation',
      'console.setDiscountCodeActive',
      { eventId: w.otherEvent.eventId, discountCodeId: id, isActive: false },
      { cookie: w.people['organiser of another event'].cookie },
    );
    expect(sideways.status).toBe(404);
    expect(sideways.body.error?.message).toBe(DISCOUNT_MESSAGES.codeNotFound);
    const { discountCodes } = tablesOf(t.deps.db);
    const [kept] = await t.deps.db.select().from(discountCodes).where(eq(discountCodes.id, id));
    expect(kept!.isActive).toBe(true);

    // The owner deactivates it: buyers are told it does not exist.
    const off = await callProcedure(
      t,
      'mutation',
      'console.setDiscountCodeActive',
      { eventId: w.event.eventId, discountCodeId: id, isActive: false },
      { cookie: w.people.owner.cookie },
    );
    expect(off.status).toBe(200);
    const buyer = await signedInUser(t);
    expect((await quote(w.event, buyer.cookie, [1], 'co')).body.error?.message).toBe(
      DISCOUNT_REFUSALS.unknown,
    );
  });
});
