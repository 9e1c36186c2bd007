import { eq, isNull } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ADD_ON_MESSAGES } from '../../shared/add-on-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { AddOnRow } from '../../src-server/services/add-ons/list-add-ons.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { releaseHold } from '../../src-server/services/inventory/holds.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, signedInUser, teamMember } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Add-ons (issue 40, ADR 0041) through the real procedures: the console creates a T-shirt in sizes,
 * Proceed takes its stock in the hold's transaction, release gives it back, the invoice has its own line
 * at its own rate, and gate staff of that event (only) mark it given.
 */
let t: TestApp;
afterEach(async () => {
  if (t) await expectAddOnInvariant();
  await t?.close();
});

const TSHIRT = {
  name: 'T-shirt',
  description: 'Tour T-shirt',
  pricePaise: 50_000,
  taxRatePercent: 5,
  hsnSac: '6109',
  maxPerOrder: 5,
  ticketTypeIds: null,
  isActive: true,
  variants: [
    { name: 'S', stock: 2 },
    { name: 'M', stock: 2 },
    { name: 'L', stock: 1 },
  ],
};

async function organiserEvent(city = 'Mumbai') {
  const owner = await account(t, 'organiser');
  const ev = await createTicketedEventOn(t.deps.db, {
    city,
    types: [{ name: 'General', pricePaise: 75_000, totalTickets: 200 }],
  });
  const { events, organiserProfiles } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId));
  await t.deps.db.insert(organiserProfiles).values({
    userId: owner.userId,
    legalName: 'Tala Collective LLP',
    address: '12 Hill Road, Mumbai',
    state: 'Maharashtra',
    gstin: '27AAPFU0939F1ZV',
    updatedAt: t.clock.now().toISOString(),
  });
  return { ev, owner };
}

/** Changes the event's own row (tax or refund settings) on either engine. */
async function setEvent(ev: TicketedEvent, values: object) {
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set(values).where(eq(events.id, ev.eventId));
}

/** The admission invoice of a booking. */
async function admissionInvoiceOf(bookingId: string) {
  const { invoices } = tablesOf(t.deps.db);
  const issued = await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId));
  return issued.find((i) => i.kind === 'admission')!;
}

async function createTshirt(ev: TicketedEvent, cookie: string, addOn: object = TSHIRT) {
  return callProcedure(t, 'mutation', 'console.createAddOn', { eventId: ev.eventId, addOn }, { cookie });
}

async function listAddOns(ev: TicketedEvent, cookie: string): Promise<AddOnRow[]> {
  const res = await callProcedure(t, 'query', 'console.addOns', { eventId: ev.eventId }, { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data as AddOnRow[];
}

function start(
  ev: TicketedEvent,
  cookie: string,
  tickets: number,
  addOns: { variantId: string; quantity: number }[],
) {
  return callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: tickets }],
      ticketDetails: DETAILS,
      addOns,
    },
    { cookie },
  );
}

async function pay(cookie: string, session: CheckoutSession): Promise<string> {
  const confirmed = await confirm(t, cookie, await payWithSimulator(t, session.orderId));
  expect(confirmed.data).toMatchObject({ outcome: 'booked' });
  return (confirmed.data as { bookingId: string }).bookingId;
}

/** Per variant: available + active holds + sold (not returned) = stock, none negative. */
async function expectAddOnInvariant() {
  const { addOnVariants, holdAddOns, holds, bookingAddOns } = tablesOf(t.deps.db);
  const variants = await t.deps.db.select().from(addOnVariants);
  const held = await t.deps.db
    .select({ variantId: holdAddOns.variantId, quantity: holdAddOns.quantity })
    .from(holdAddOns)
    .innerJoin(holds, eq(holds.id, holdAddOns.holdId))
    .where(eq(holds.status, 'active'));
  const sold = await t.deps.db
    .select({ variantId: bookingAddOns.variantId, quantity: bookingAddOns.quantity })
    .from(bookingAddOns)
    .where(isNull(bookingAddOns.returnedAt));
  const sum = (lines: { variantId: string; quantity: number }[], id: string) =>
    lines.filter((l) => l.variantId === id).reduce((total, l) => total + l.quantity, 0);
  for (const v of variants) {
    expect(v.available, `variant ${v.id}`).toBeGreaterThanOrEqual(0);
    expect(v.available + sum(held, v.id) + sum(sold, v.id), `variant ${v.id}`).toBe(v.stock);
  }
}

describe('stock', () => {
  it('50 buyers racing for the last 5 T-shirts across three sizes: exactly 5 are held, then sold', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    expect((await createTshirt(ev, owner.cookie)).status).toBe(200);
    const [addOn] = await listAddOns(ev, owner.cookie);
    const variants = addOn!.variants.map((v) => v.id);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => signedInUser(t)));
    const results = await Promise.all(
      buyers.map((b, i) => start(ev, b.cookie, 1, [{ variantId: variants[i % 3]!, quantity: 1 }])),
    );
    const won = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(won).toHaveLength(5);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error?.message).toMatch(/^T-shirt \((S|M|L)\): Sold Out$/);
    }
    for (const i of won) await pay(buyers[i]!.cookie, results[i]!.data as CheckoutSession);
    const [after] = await listAddOns(ev, owner.cookie);
    expect(after!.variants.map((v) => [v.sold, v.held, v.left])).toEqual([
      [2, 0, 0],
      [2, 0, 0],
      [1, 0, 0],
    ]);
  });

  it('a released hold gives its T-shirts back; a cancelled booking too', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    await createTshirt(ev, owner.cookie);
    const [addOn] = await listAddOns(ev, owner.cookie);
    const m = addOn!.variants[1]!.id;
    const buyer = await signedInUser(t);
    const held = await start(ev, buyer.cookie, 1, [{ variantId: m, quantity: 2 }]);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect((await listAddOns(ev, owner.cookie))[0]!.variants[1]).toMatchObject({ held: 2, left: 0 });
    const session = held.data as CheckoutSession;
    expect(await releaseHold(t.deps.db, session.holdId, 'expired', t.clock.now())).toBe(true);
    expect((await listAddOns(ev, owner.cookie))[0]!.variants[1]).toMatchObject({ held: 0, left: 2 });
    const { holds } = tablesOf(t.deps.db);
    const [released] = await t.deps.db.select().from(holds).where(eq(holds.id, session.holdId));
    expect(released?.status).toBe('released');

    const bought = await start(ev, buyer.cookie, 1, [{ variantId: m, quantity: 2 }]);
    const bookingId = await pay(buyer.cookie, bought.data as CheckoutSession);
    expect((await listAddOns(ev, owner.cookie))[0]!.variants[1]).toMatchObject({ sold: 2, left: 0 });
    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: owner.cookie },
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await listAddOns(ev, owner.cookie))[0]!.variants[1]).toMatchObject({ sold: 0, left: 2 });
  });
});

describe('money', () => {
  it('the invoice has the T-shirt as its own line at its own rate, hand-worked', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    await createTshirt(ev, owner.cookie);
    const [addOn] = await listAddOns(ev, owner.cookie);
    const buyer = await signedInUser(t);
    const held = await start(ev, buyer.cookie, 2, [{ variantId: addOn!.variants[0]!.id, quantity: 1 }]);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const session = held.data as CheckoutSession;
    // Prices include GST: the buyer pays 2 × ₹750 + ₹500 = ₹2,000 plus the fee on the tickets only.
    expect(session.addOnsPaise).toBe(50_000);
    expect(session.amountPaise).toBe(200_000 + session.feePaise + session.igstPaise);
    const bookingId = await pay(buyer.cookie, session);
    const invoice = await admissionInvoiceOf(bookingId);
    // Mumbai venue, Maharashtra organiser: intra-state, CGST + SGST.
    // Tickets: 2 × ₹750 = ₹1,500.00 incl. 18 %: taxable 150000 × 100/118 = 127118.6 → 127119, tax 22881;
    //   odd paisa to the taxable value → taxable ₹1,271.20, CGST ₹114.40, SGST ₹114.40.
    // T-shirt: 1 × ₹500 incl. 5 % (12 % left the schedule on 22 Sep 2025; apparel ≤ ₹2,500 is 5 %):
    //   taxable 50000 × 100/105 = 47619.05 → 47619, tax 2381; odd paisa → taxable ₹476.20,
    //   CGST ₹11.90, SGST ₹11.90. The ₹500 admission exemption is never applied to it.
    // Invoice: taxable ₹1,747.40, CGST ₹126.30, SGST ₹126.30, total ₹2,000.00.
    expect(invoice.lines).toEqual([
      expect.objectContaining({
        sac: '999622',
        quantity: 2,
        taxableValuePaise: 127_120,
        cgstPaise: 11_440,
        sgstPaise: 11_440,
      }),
      expect.objectContaining({
        description: expect.stringContaining('T-shirt (S)'),
        sac: '6109',
        taxRatePercent: 5,
        quantity: 1,
        taxableValuePaise: 47_620,
        cgstPaise: 1_190,
        sgstPaise: 1_190,
        igstPaise: 0,
      }),
    ]);
    expect(invoice).toMatchObject({
      taxableValuePaise: 174_740,
      cgstPaise: 12_630,
      sgstPaise: 12_630,
      totalPaise: 200_000,
      documentType: 'tax_invoice',
    });
    const payout = await callProcedure(
      t,
      'query',
      'console.payoutStatement',
      { eventId: ev.eventId },
      { cookie: owner.cookie },
    );
    expect(payout.status, JSON.stringify(payout.body)).toBe(200);
    // Add-on revenue apart from ticket revenue; the organiser is owed both.
    expect((payout.data as { statement: object }).statement).toMatchObject({
      ticketRevenuePaise: 150_000,
      addOnRevenuePaise: 50_000,
      payablePaise: 200_000,
    });
    const csv = await t.request(`/api/organiser/events/${ev.eventId}/orders.csv`, {
      headers: { cookie: owner.cookie },
    });
    expect(csv.status).toBe(200);
    // The add-ons' own columns: what and how much, GST included, apart from "Tickets (INR)".
    expect((await csv.text()).trimEnd().endsWith(',1 × T-shirt (S),500.00,online')).toBe(true);
  });
});

describe('money, prices + GST', () => {
  it('inter-state with prices + GST: each line’s IGST at its own rate on top, the total what was paid', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    // Venue in Bengaluru, organiser in Maharashtra: IGST.
    const { ev, owner } = await organiserEvent('Bengaluru');
    await setEvent(ev, { taxInclusive: false });
    await createTshirt(ev, owner.cookie);
    const [addOn] = await listAddOns(ev, owner.cookie);
    const buyer = await signedInUser(t);
    const held = await start(ev, buyer.cookie, 1, [{ variantId: addOn!.variants[0]!.id, quantity: 1 }]);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const session = held.data as CheckoutSession;
    // Ticket ₹750 + 18 % = ₹885.00 (its GST is the admission GST line); T-shirt ₹500 + 5 % = ₹525.00.
    expect(session.admissionTaxPaise).toBe(13_500);
    expect(session.addOnsPaise).toBe(52_500);
    expect(session.amountPaise).toBe(88_500 + 52_500 + session.feePaise + session.igstPaise);
    const bookingId = await pay(buyer.cookie, session);
    const invoice = await admissionInvoiceOf(bookingId);
    // Ticket: taxable ₹750.00, IGST 18 % ₹135.00. T-shirt: taxable ₹500.00, IGST 5 % ₹25.00.
    expect(
      invoice.lines.map((l) => [l.sac, l.taxRatePercent, l.taxableValuePaise, l.igstPaise, l.cgstPaise]),
    ).toEqual([
      ['999622', 18, 75_000, 13_500, 0],
      ['6109', 5, 50_000, 2_500, 0],
    ]);
    expect(invoice).toMatchObject({
      taxInclusive: false,
      taxableValuePaise: 125_000,
      igstPaise: 16_000,
      totalPaise: 141_000,
    });
  });
});

describe('cancelling some tickets', () => {
  it('refunds the tickets cancelled, not a share of the add-ons the buyer keeps', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    await setEvent(ev, { refundRule: 'minus_fee', refundPercent: null, refundCutoffHours: 24 });
    await createTshirt(ev, owner.cookie);
    const [addOn] = await listAddOns(ev, owner.cookie);
    const buyer = await signedInUser(t);
    const held = await start(ev, buyer.cookie, 2, [{ variantId: addOn!.variants[0]!.id, quantity: 1 }]);
    const bookingId = await pay(buyer.cookie, held.data as CheckoutSession);
    const res = await callProcedure(
      t,
      'mutation',
      'bookings.cancelSomeTickets',
      { bookingId, tickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 1 }] },
      { cookie: buyer.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // One ticket of two: ₹750.00 back (the fee kept, 'minus_fee'); the ₹500 T-shirt is not in it.
    expect(res.data).toEqual({ refundAmountPaise: 75_000 });
    // Its credit note is at the tickets' 18 %, not the invoice's mix with the T-shirt's 5 %: of the two
    // tickets' 1,50,000 (CGST 11,440 + SGST 11,440), half: CGST 5,720 + SGST 5,720, taxable 63,560.
    // (In the whole invoice's proportion it would have been CGST 4,736 + SGST 4,736: too little tax.)
    const { partialCreditNotes } = tablesOf(t.deps.db);
    const [note] = await t.deps.db.select().from(partialCreditNotes);
    expect(note).toMatchObject({
      totalPaise: 75_000,
      taxableValuePaise: 63_560,
      cgstPaise: 5_720,
      sgstPaise: 5_720,
      igstPaise: 0,
    });
  });
});

describe('gate', () => {
  it('gate staff of the event mark an add-on given once (history records who); another organiser: NOT_FOUND', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    await createTshirt(ev, owner.cookie);
    const [addOn] = await listAddOns(ev, owner.cookie);
    const buyer = await signedInUser(t);
    const held = await start(ev, buyer.cookie, 1, [{ variantId: addOn!.variants[2]!.id, quantity: 1 }]);
    const bookingId = await pay(buyer.cookie, held.data as CheckoutSession);
    const staff = await account(t);
    await teamMember(t, ev.eventId, staff.userId, 'gate_staff');
    const list = await callProcedure(
      t,
      'query',
      'gate.addOns',
      { eventId: ev.eventId, bookingId },
      { cookie: staff.cookie },
    );
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const [line] = list.data as { id: string; givenAt: string | null }[];
    expect(line).toMatchObject({ name: 'T-shirt', variantName: 'L', quantity: 1, givenAt: null });
    // The offline list carries it read-only (a ninth entry; generation 0 before it).
    const sync = await callProcedure(
      t,
      'query',
      'gate.sync',
      { eventId: ev.eventId, slotId: ev.slotId },
      { cookie: staff.cookie },
    );
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);
    const row = (sync.data as { tickets: unknown[][] }).tickets.find((r) => r[0] === bookingId);
    expect(row?.slice(7)).toEqual([0, ['1 × T-shirt (L)']]);
    // Gate staff see what to hand over, never its price.
    expect(JSON.stringify(list.data)).not.toContain('Paise');
    const input = { eventId: ev.eventId, bookingId, lineId: line!.id, gate: 'North gate' };
    const other = await account(t, 'organiser');
    const refused = await callProcedure(t, 'mutation', 'gate.markAddOnGiven', input, {
      cookie: other.cookie,
    });
    expect(refused.status).toBe(404);
    for (let i = 0; i < 2; i++) {
      const given = await callProcedure(t, 'mutation', 'gate.markAddOnGiven', input, {
        cookie: staff.cookie,
      });
      expect(given.status, JSON.stringify(given.body)).toBe(200);
      expect((given.data as { givenAt: string }).givenAt).toBe(t.clock.now().toISOString());
    }
    const { bookingHistory } = tablesOf(t.deps.db);
    const history = await t.deps.db
      .select()
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, bookingId));
    expect(history.filter((h) => h.kind === 'add_on_given')).toEqual([
      expect.objectContaining({
        actor: 'gate',
        actorUserId: staff.userId,
        // What and how many apart: the booking page writes "1 × T-shirt (L)" from them.
        details: { name: 'T-shirt (L)', quantity: 1, gate: 'North gate' },
      }),
    ]);
  });
});

describe('bad input', () => {
  it('refuses a negative price, a rate not in the schedule, a 50,000-character name, and over the per-order maximum', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    for (const [bad, message] of [
      [{ pricePaise: -1 }, ADD_ON_MESSAGES.price],
      [{ taxRatePercent: 12 }, ADD_ON_MESSAGES.rate],
      [{ name: 'x'.repeat(50_000) }, ADD_ON_MESSAGES.nameLong],
      [{ hsnSac: 'abc' }, ADD_ON_MESSAGES.hsnSac],
    ] as const) {
      const res = await createTshirt(ev, owner.cookie, { ...TSHIRT, ...bad });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    expect(await listAddOns(ev, owner.cookie)).toEqual([]);
    await createTshirt(ev, owner.cookie, { ...TSHIRT, maxPerOrder: 1 });
    const [addOn] = await listAddOns(ev, owner.cookie);
    const over = await start(ev, (await signedInUser(t)).cookie, 1, [
      { variantId: addOn!.variants[0]!.id, quantity: 1 },
      { variantId: addOn!.variants[1]!.id, quantity: 1 },
    ]);
    expect(over.status).toBe(400);
    expect(over.body.error?.message).toBe(ADD_ON_MESSAGES.overMax('T-shirt', 1));
    const { addOnVariants } = tablesOf(t.deps.db);
    expect((await t.deps.db.select().from(addOnVariants)).every((v) => v.available === v.stock)).toBe(true);
  });
});
