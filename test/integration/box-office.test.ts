import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOX_OFFICE_MESSAGES } from '../../shared/box-office-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { WALK_IN_ACCOUNT } from '../../src-server/services/box-office/record-box-office-sale.ts';
import { runDueRefunds } from '../../src-server/services/refunds/run-due-refunds.ts';
import { ORDERS_CSV_HEADER } from '../../src-server/services/sales/stream-orders-csv.ts';
import {
  account,
  buy as buyTickets,
  type Person,
  signedInUser,
  teamMember,
} from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  DETAILS,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Comps and door sales (issue 40, ADR 0042) through the real procedures. A GST-registered organiser in
 * Maharashtra sells Stalls at ₹750 + GST (tax-exclusive prices, 18 %, a Mumbai venue: intra-state); the
 * platform is registered too. Hand-worked, in paise, for 2 Stalls sold at the door:
 *   tickets 2 × 75,000 = 1,50,000 (the taxable value)
 *   GST 18 % of 1,50,000 = 27,000, intra-state: CGST 13,500 + SGST 13,500
 *   no convenience fee at the door (ADR 0042), so no fee GST
 *   the buyer pays 1,50,000 + 27,000 = 1,77,000 (₹1,770), all of it collected by the organiser in cash.
 * An online buyer of 1 Stalls pays 75,000 + 13,500 GST + the default 5 % fee on 75,000 (3,750) + 18 %
 * GST on the fee (675) = 92,925; the organiser's ticket revenue from it is 88,500.
 * Runs on both engines (vitest.config.ts ON_BOTH_ENGINES).
 */
const PLATFORM_GST = {
  SEED_DEMO_DATA: 'false' as const,
  PLATFORM_GSTIN: '29AAGCB7383J1Z4',
  PLATFORM_LEGAL_NAME: 'Jalsa Technologies Pvt Ltd',
  PLATFORM_ADDRESS: 'Indiranagar, Bengaluru 560038',
  PLATFORM_STATE: 'Karnataka',
};

let t: TestApp;
let ev: TicketedEvent;
let owner: Person;

/** The engine's tables, for the rows this file reads and writes itself. */
const tables = () => tablesOf(t.deps.db);
const countOf = (ticketTypeId: string) => countOfOn(t.deps.db, ticketTypeId);

function buyer(extra: object = {}) {
  return { name: 'Ravi Kulkarni', email: 'ravi.walkin@example.com', phone: '98200 12345', ...extra };
}

function comp(cookie: string, extra: object = {}, event: TicketedEvent = ev) {
  return callProcedure(
    t,
    'mutation',
    'boxOffice.issueComp',
    {
      eventId: event.eventId,
      slotId: event.slotId,
      lines: [{ ticketTypeId: event.ticketTypeIds[0], quantity: 1 }],
      ...buyer(),
      reason: "Artist's guest",
      ...extra,
    },
    { cookie },
  );
}

function doorSale(cookie: string, extra: object = {}) {
  return callProcedure(
    t,
    'mutation',
    'boxOffice.recordDoorSale',
    {
      eventId: ev.eventId,
      slotId: ev.slotId,
      lines: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 2 }],
      ...buyer(),
      method: 'cash',
      ...extra,
    },
    { cookie },
  );
}

async function bookingOf(bookingId: string) {
  const { bookings } = tables();
  const [row] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
  return row!;
}
async function invoicesOf(bookingId: string) {
  const { invoices } = tables();
  return t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId)).orderBy(asc(invoices.id));
}
async function mailTo(to: string) {
  const { outbox } = tables();
  return t.deps.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(asc(outbox.id));
}

beforeEach(async () => {
  t = await createTestAppOn(testEngine(), PLATFORM_GST);
  owner = await account(t, 'organiser');
  await saveTaxProfile(t, owner.userId);
  ev = await createTicketedEventOn(t.deps.db, {
    types: [
      { name: 'Stalls', pricePaise: 75_000, totalTickets: 20 },
      { name: 'Balcony', pricePaise: 50_000, totalTickets: 10 },
    ],
    city: 'Mumbai',
  });
  const { events } = tables();
  await t.deps.db
    .update(events)
    .set({ ownerId: owner.userId, taxInclusive: false })
    .where(eq(events.id, ev.eventId));
});
afterEach(async () => {
  await expectInventoryInvariantOn(t.deps.db);
  await t.close();
});

describe('a comp', () => {
  it('is a ₹0 booking from the same inventory, with no invoice, mailed to the buyer, and counted apart', async () => {
    const res = await comp(owner.cookie, { lines: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 2 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { bookingId, totalPaise } = res.data as { bookingId: string; totalPaise: number };
    expect(totalPaise).toBe(0);

    const booking = await bookingOf(bookingId);
    expect(booking).toMatchObject({
      status: 'confirmed',
      totalAmountPaise: 0,
      subtotalAmountPaise: 0,
      feeAmountPaise: 0,
      igstAmountPaise: 0,
      ticketCount: 2,
      userName: 'Ravi Kulkarni',
      userEmail: 'ravi.walkin@example.com',
      userPhone: '9820012345',
      // Nobody has an account with that e-mail: the booking is reached by the ticket link in the mail.
      userId: WALK_IN_ACCOUNT.id,
    });
    expect(booking.ticketTypes[0]).toMatchObject({ name: 'Stalls', pricePaise: 0, quantity: 2 });
    expect(await countOf(ev.ticketTypeIds[0]!)).toMatchObject({ available: 18, sold: 2 });
    // No consideration, no supply (CGST Act s.7): no tax invoice, no bill of supply, no fee invoice.
    expect(await invoicesOf(bookingId)).toEqual([]);
    const mail = await mailTo('ravi.walkin@example.com');
    expect(mail.map((m) => m.subject).join()).toContain('Booking Confirmed');
    // The link carries the ticket's signed token: it opens the ticket page without an account …
    const link = new URL(/(http\S+\/ticket\/\S+)/.exec(mail[0]!.text)![1]!);
    expect(link.pathname).toBe(`/ticket/${bookingId}`);
    const token = link.searchParams.get('t')!;
    const page = await callProcedure(t, 'query', 'bookings.byId', { bookingId, token });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.data).toMatchObject({ id: bookingId, qrToken: token, ticketCount: 2 });
    // … and nothing without it, nor with it for another booking.
    const bare = await callProcedure(t, 'query', 'bookings.byId', { bookingId });
    expect(bare.status).toBe(404);
    const other = (await buyTickets(t, ev, 1)).bookingId;
    const stolen = await callProcedure(t, 'query', 'bookings.byId', { bookingId: other, token });
    expect(stolen.body.error?.message).toBe(bare.body.error?.message);
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await callProcedure(t, 'query', 'bookings.byId', { bookingId, token: forged })).status).toBe(404);
    // Once the booking moves on (a transfer), the old link's token opens nothing.
    const { bookings } = tables();
    await t.deps.db.update(bookings).set({ transferCount: 1 }).where(eq(bookings.id, bookingId));
    expect((await callProcedure(t, 'query', 'bookings.byId', { bookingId, token })).status).toBe(404);
    await t.deps.db.update(bookings).set({ transferCount: 0 }).where(eq(bookings.id, bookingId));
    expect(await t.deps.db.select().from(tables().boxOfficeSales)).toEqual([
      expect.objectContaining({
        bookingId,
        kind: 'comp',
        reason: "Artist's guest",
        recordedBy: owner.userId,
      }),
    ]);
    const { bookingHistory } = tables();
    const history = await t.deps.db
      .select()
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, bookingId));
    expect(history).toEqual([
      expect.objectContaining({ kind: 'confirmed', actor: 'organiser', actorUserId: owner.userId }),
    ]);

    // Counted apart: an order, but no money; the payout statement counts it as a comp.
    const dash = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie: owner.cookie },
    );
    expect((dash.data as { money: object }).money).toMatchObject({
      orders: 2,
      compOrders: 1,
      doorSales: 0,
      ticketRevenuePaise: 88_500,
      payablePaise: 88_500,
    });
    const payout = await callProcedure(
      t,
      'query',
      'console.payoutStatement',
      { eventId: ev.eventId },
      { cookie: owner.cookie },
    );
    expect((payout.data as { statement: object }).statement).toMatchObject({
      comps: 1,
      payablePaise: 88_500,
    });
  });

  it('may be of a hidden ticket type, which buyers see only with an access code (ADR 0038)', async () => {
    const { ticketTypes } = tables();
    await t.deps.db
      .update(ticketTypes)
      .set({ isHidden: true })
      .where(eq(ticketTypes.id, ev.ticketTypeIds[0]!));
    const res = await comp(owner.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await countOf(ev.ticketTypeIds[0]!)).toMatchObject({ sold: 1 });
  });

  it('belongs to the buyer’s account when their e-mail has one', async () => {
    const known = await signedInUser(t);
    const res = await comp(owner.cookie, { email: known.email.toUpperCase() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await bookingOf((res.data as { bookingId: string }).bookingId)).userId).toBe(known.userId);
    const mine = await callProcedure(t, 'query', 'bookings.mine', undefined, { cookie: known.cookie });
    expect(mine.data as unknown[]).toHaveLength(1);
    // Their own account opens it: the mailed link carries no token.
    const [mail] = await mailTo(known.email);
    expect(mail!.text).not.toContain('?t=');
  });

  it('needs a reason, a valid phone and at least one ticket, and the slot’s own ticket types', async () => {
    const noReason = await comp(owner.cookie, { reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error?.data.fieldErrors?.reason).toBe(BOX_OFFICE_MESSAGES.reasonRequired);
    const badPhone = await comp(owner.cookie, { phone: '12345' });
    expect(badPhone.body.error?.data.fieldErrors?.phone).toBe(BOX_OFFICE_MESSAGES.phoneInvalid);
    const noTickets = await comp(owner.cookie, { lines: [] });
    expect(noTickets.body.error?.data.fieldErrors?.lines).toBe(BOX_OFFICE_MESSAGES.ticketsRequired);
    const zero = await comp(owner.cookie, { lines: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 0 }] });
    expect(zero.status).toBe(400);
    const other = await createTicketedEventOn(t.deps.db);
    const foreignType = await comp(owner.cookie, {
      lines: [{ ticketTypeId: other.ticketTypeIds[0], quantity: 1 }],
    });
    expect(foreignType.status).toBe(404);
    const foreignSlot = await comp(owner.cookie, { slotId: other.slotId });
    expect(foreignSlot.body.error?.message).toBe(BOX_OFFICE_MESSAGES.slotNotFound);
    const tooMany = await comp(owner.cookie, {
      lines: [{ ticketTypeId: ev.ticketTypeIds[1], quantity: 10 }],
    });
    expect(tooMany.status).toBe(200);
    const soldOut = await comp(owner.cookie, { lines: [{ ticketTypeId: ev.ticketTypeIds[1], quantity: 1 }] });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.error?.message).toBe('Balcony: Sold Out');
    expect(await t.deps.db.select().from(tables().boxOfficeSales)).toHaveLength(1);
  });
});

describe('a door sale', () => {
  it('charges the server’s prices with GST, no fee, gets its GST invoice, and is collected at the door', async () => {
    const res = await doorSale(owner.cookie, { reference: 'Receipt 0042', totalPaise: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { bookingId } = res.data as { bookingId: string };
    expect(await bookingOf(bookingId)).toMatchObject({
      subtotalAmountPaise: 150_000,
      feeAmountPaise: 0,
      igstAmountPaise: 0,
      totalAmountPaise: 177_000,
    });
    const issued = await invoicesOf(bookingId);
    expect(issued.map((i) => i.kind)).toEqual(['admission']);
    expect(issued[0]).toMatchObject({
      documentType: 'tax_invoice',
      taxableValuePaise: 150_000,
      cgstPaise: 13_500,
      sgstPaise: 13_500,
      igstPaise: 0,
      totalPaise: 177_000,
    });
    expect((await t.deps.db.select().from(tables().boxOfficeSales))[0]).toMatchObject({
      kind: 'door',
      method: 'cash',
      reference: 'Receipt 0042',
    });

    await buyTickets(t, ev, 1);
    await doorSale(owner.cookie, {
      method: 'upi',
      lines: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }],
    });
    const dash = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie: owner.cookie },
    );
    // Ticket revenue: 1,77,000 (door, cash) + 88,500 (door, UPI) + 88,500 (online) = 3,54,000.
    // Collected at the door: 1,77,000 + 88,500; the platform owes only the online sale's 88,500.
    expect((dash.data as { money: object }).money).toMatchObject({
      orders: 3,
      doorSales: 2,
      doorCashPaise: 177_000,
      doorUpiPaise: 88_500,
      collectedAtDoorPaise: 265_500,
      ticketRevenuePaise: 354_000,
      convenienceFeesPaise: 3_750,
      payablePaise: 88_500,
    });
    const payout = await callProcedure(
      t,
      'query',
      'console.payoutStatement',
      { eventId: ev.eventId },
      { cookie: owner.cookie },
    );
    expect((payout.data as { statement: object }).statement).toMatchObject({
      collectedAtDoorPaise: 265_500,
      payablePaise: 88_500,
    });

    const csv = await (
      await t.request(`/api/organiser/events/${ev.eventId}/orders.csv`, { headers: { cookie: owner.cookie } })
    ).text();
    const rows = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]!.split(',').at(-1)).toBe('Channel');
    expect(ORDERS_CSV_HEADER.at(-1)).toBe('Channel');
    expect(
      rows
        .slice(1)
        .map((r) => r.split(',').at(-1))
        .sort(),
    ).toEqual(['door', 'door', 'online']);
  });

  it('cancelled by the organiser: seats back on sale, its invoice credited, and no gateway refund for cash', async () => {
    const sale = await doorSale(owner.cookie);
    const { bookingId } = sale.data as { bookingId: string };
    const res = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: owner.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await bookingOf(bookingId)).status).toBe('cancelled');
    expect(await countOf(ev.ticketTypeIds[0]!)).toMatchObject({ available: 20, sold: 0 });
    // The organiser hands the cash back at the desk: nothing is sent to the payment gateway.
    expect(await t.deps.db.select().from(tables().refunds)).toEqual([]);
    expect(await t.deps.db.select().from(tables().creditNotes)).toHaveLength(1);
  });

  it('refunded in part by the organiser: a credit note for the part, and nothing asked of the gateway', async () => {
    const sale = await doorSale(owner.cookie);
    const { bookingId } = sale.data as { bookingId: string };
    // 1,77,000 paid at the door; 50,000 handed back in cash: the ticket money's part, no fee to keep.
    const res = await callProcedure(
      t,
      'mutation',
      'eventBookings.refundPart',
      { eventId: ev.eventId, bookingId, amountPaise: 50_000, reason: 'Seat view blocked', cancelTickets: [] },
      { cookie: owner.cookie },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await runDueRefunds(t.deps);
    const [part] = await t.deps.db.select().from(tables().refundParts);
    expect(part).toMatchObject({ bookingId, amountPaise: 50_000, status: 'processed' });
    expect(await t.deps.db.select().from(tables().partialCreditNotes)).toHaveLength(1);
    expect(await t.deps.db.select().from(tables().refunds)).toEqual([]);
  });

  it('refuses an unknown payment method and a long reference', async () => {
    expect((await doorSale(owner.cookie, { method: 'card' })).status).toBe(400);
    const long = await doorSale(owner.cookie, { reference: 'x'.repeat(65) });
    expect(long.body.error?.data.fieldErrors?.reference).toBe(BOX_OFFICE_MESSAGES.referenceLong);
    expect(await t.deps.db.select().from(tables().bookings)).toEqual([]);
  });
});

describe('never oversold', () => {
  it('comps racing online buyers for the last seats: exactly as many bookings as seats', async () => {
    ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Last Row', pricePaise: 75_000, totalTickets: 3 }],
    });
    const { events } = tables();
    await t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId));
    const buyers = [];
    for (let i = 0; i < 4; i++) buyers.push(await signedInUser(t));
    const online = buyers.map((b) =>
      callProcedure(
        t,
        'mutation',
        'payments.start',
        {
          eventId: ev.eventId,
          selectedDate: ev.dateId,
          selectedSlot: ev.slotId,
          selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }],
          ticketDetails: DETAILS,
        },
        { cookie: b.cookie },
      ),
    );
    const comps = Array.from({ length: 4 }, (_, i) => comp(owner.cookie, { email: `guest${i}@example.com` }));
    const results = await Promise.all([...online, ...comps]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
    expect(await countOf(ev.ticketTypeIds[0]!)).toMatchObject({ available: 0 });
  });
});

describe('who may', () => {
  it('a box-office member issues comps, records door sales and looks up orders, and nothing else', async () => {
    const desk = await account(t);
    await teamMember(t, ev.eventId, desk.userId, 'box_office');
    expect((await comp(desk.cookie)).status).toBe(200);
    const sale = await doorSale(desk.cookie, { method: 'upi', reference: 'UPI 4242' });
    expect(sale.status).toBe(200);
    const found = await callProcedure(
      t,
      'query',
      'boxOffice.lookUpOrders',
      { eventId: ev.eventId, query: 'RAVI' },
      { cookie: desk.cookie },
    );
    expect(found.status).toBe(200);
    expect((found.data as { channel: string }[]).map((o) => o.channel).sort()).toEqual(['comp', 'door']);
    const byMobile = await callProcedure(
      t,
      'query',
      'boxOffice.lookUpOrders',
      { eventId: ev.eventId, query: '+91 98200-12345' },
      { cookie: desk.cookie },
    );
    expect((byMobile.data as unknown[]).length).toBe(2);

    const edit = await callProcedure(
      t,
      'mutation',
      'organiser.unpublish',
      { eventId: ev.eventId, version: 1 },
      { cookie: desk.cookie },
    );
    expect(edit.status).toBe(403);
    for (const procedure of ['console.salesDashboard', 'console.payoutStatement', 'console.team']) {
      const res = await callProcedure(
        t,
        'query',
        procedure,
        { eventId: ev.eventId },
        { cookie: desk.cookie },
      );
      expect(res.status, procedure).toBe(403);
    }
    // Another event: as if it did not exist.
    const other = await createTicketedEventOn(t.deps.db);
    const elsewhere = await comp(desk.cookie, {}, other);
    expect(elsewhere.status).toBe(404);
    expect(await t.deps.db.select().from(tables().bookings)).toHaveLength(2);
  });

  it('another organiser and a buyer are told the event does not exist; gate staff are not allowed', async () => {
    const rival = await account(t, 'organiser');
    const gate = await account(t);
    await teamMember(t, ev.eventId, gate.userId, 'gate_staff');
    const unknown = await comp(rival.cookie, { eventId: 'evt-doesnotexist' });
    for (const cookie of [rival.cookie, (await account(t)).cookie]) {
      const res = await comp(cookie);
      expect(res.status).toBe(404);
      expect(res.body.error?.message).toBe(unknown.body.error?.message);
      expect((await doorSale(cookie)).status).toBe(404);
    }
    expect((await comp(gate.cookie)).status).toBe(403);
    expect((await comp('')).status).toBe(401);
    expect(await t.deps.db.select().from(tables().bookings)).toEqual([]);
    expect(await countOf(ev.ticketTypeIds[0]!)).toMatchObject({ available: 20 });
  });
});
