import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGES, DISCOUNT_REFUSALS } from '../../shared/discount-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { LOCKED_TYPE_MESSAGE } from '../../src-server/services/access-codes/hidden-types.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, mailOn, signedInUser } from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  DETAILS,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Access codes and hidden ticket types (issue 40, ADR 0038) through the real procedures: a hidden type
 * is in no buyer's answer (event page, ticket selection, the lists' "from" price, search) and cannot be
 * held, quoted or waited for, unless the buyer brings a code of the event that unlocks it; the code's
 * uses are counted like a discount code's, in the hold's transaction.
 */

const CODE = {
  kind: 'none',
  percentOff: null,
  amountOffPaise: null,
  ticketTypeIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: null,
  maxUsesPerBuyer: null,
  unlocksTicketTypeIds: null,
};
/** Stalls is public at ₹500; Press is hidden at ₹300 (below Stalls, so the "from" price would show it). */
const TYPES = [
  { name: 'Stalls', pricePaise: 50_000, totalTickets: 100 },
  { name: 'Press Pass', pricePaise: 30_000, totalTickets: 100 },
];

let t: TestApp;
afterEach(async () => {
  if (t) await expectInventoryInvariantOn(t.deps.db);
  await t?.close();
});

async function organiserEvent(name?: string) {
  const owner = await account(t, 'organiser');
  const ev = await createTicketedEventOn(t.deps.db, { types: TYPES, name });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId));
  return { ev, owner, stalls: ev.ticketTypeIds[0]!, press: ev.ticketTypeIds[1]! };
}

/** Hides a type as the console's ticket-type editor does ("Hidden: sold only with an access code"). */
async function hide(ev: TicketedEvent, cookie: string, ticketTypeId: string) {
  const { events, ticketTypes } = tablesOf(t.deps.db);
  const [type] = await t.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, ticketTypeId));
  const [event] = await t.deps.db.select().from(events).where(eq(events.id, ev.eventId));
  const version = event!.version;
  const res = await callProcedure(
    t,
    'mutation',
    'organiser.updateTicketType',
    {
      eventId: ev.eventId,
      version,
      ticketTypeId,
      ticket: {
        name: type!.name,
        priceRupees: type!.pricePaise / 100,
        totalTickets: type!.totalTickets,
        maxPerOrder: type!.maxPerOrder,
        personAllowedPerTicket: type!.personAllowedPerTicket,
        description: type!.description,
        benefits: type!.benefits,
        isRefundable: type!.isRefundable,
        onSale: true,
        isHidden: true,
        saleOpensAt: null,
        saleClosesAt: null,
      },
    },
    { cookie },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function hideInDb(ticketTypeId: string) {
  const { ticketTypes } = tablesOf(t.deps.db);
  await t.deps.db.update(ticketTypes).set({ isHidden: true }).where(eq(ticketTypes.id, ticketTypeId));
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

function start(ev: TicketedEvent, cookie: string, ticketTypeId: string, discountCode?: string) {
  return callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId, quantity: 1 }],
      ticketDetails: DETAILS,
      discountCode,
    },
    { cookie },
  );
}

async function buy(ev: TicketedEvent, cookie: string, ticketTypeId: string, discountCode: string) {
  const res = await start(ev, cookie, ticketTypeId, discountCode);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const session = res.data as CheckoutSession;
  const confirmed = await confirm(t, cookie, await payWithSimulator(t, session.orderId));
  expect(confirmed.data).toMatchObject({ outcome: 'booked' });
  return session;
}

/** The type ids a buyer is shown on the event page and the ticket selection. */
async function shownTypes(ev: TicketedEvent, code?: string) {
  const page = await callProcedure(t, 'query', 'events.byId', { id: ev.eventId, code });
  const options = await callProcedure(t, 'query', 'tickets.options', { eventId: ev.eventId, code });
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const pageTypes = (page.data as { tickets: { slots: { tickets: { id: string }[] }[] }[] }).tickets.flatMap(
    (d) => d.slots.flatMap((s) => s.tickets.map((x) => x.id)),
  );
  const optionTypes = (
    options.data as { dates: { slots: { ticketTypes: { id: string }[] }[] }[] }
  ).dates.flatMap((d) => d.slots.flatMap((s) => s.ticketTypes.map((x) => x.id)));
  expect(optionTypes).toEqual(pageTypes);
  return { ids: pageTypes, body: JSON.stringify(page.body) + JSON.stringify(options.body) };
}

async function usesOf(id: string): Promise<number> {
  const { discountCodes } = tablesOf(t.deps.db);
  const [code] = await t.deps.db.select().from(discountCodes).where(eq(discountCodes.id, id));
  return code!.uses;
}

describe('a hidden ticket type', () => {
  it('is shown nowhere and cannot be held, quoted or waited for without its code', async () => {
    t = await createTestAppOn(testEngine());
    const { ev, owner, stalls, press } = await organiserEvent('Qawwali Night Hidden');
    const listedFrom = async () => {
      const list = await callProcedure(t, 'query', 'events.list', {});
      const found = await callProcedure(t, 'query', 'events.search', { q: 'Qawwali' });
      const inList = (list.data as { id: string; lowestPricePaise: number }[]).find(
        (e) => e.id === ev.eventId,
      );
      const inSearch = (found.data as { id: string; lowestPricePaise: number }[]).find(
        (e) => e.id === ev.eventId,
      );
      return [inList?.lowestPricePaise, inSearch?.lowestPricePaise];
    };
    expect(await listedFrom()).toEqual([30_000, 30_000]);

    await hide(ev, owner.cookie, press);
    // The lists' and search's "from" price is the cheapest type everyone may buy.
    expect(await listedFrom()).toEqual([50_000, 50_000]);
    const shown = await shownTypes(ev);
    expect(shown.ids).toEqual([stalls]);
    expect(shown.body).not.toContain('Press Pass');
    await codeOf(ev, owner.cookie, { code: 'PRESS', unlocksTicketTypeIds: [press] });
    expect((await shownTypes(ev, 'wrong')).ids).toEqual([stalls]);

    const buyer = await signedInUser(t);
    for (const code of [undefined, 'wrong']) {
      const held = await start(ev, buyer.cookie, press, code);
      expect(held.status).toBe(404);
      expect(held.body.error?.message).toBe(LOCKED_TYPE_MESSAGE);
      expect(JSON.stringify(held.body)).not.toContain('Press Pass');
    }
    const quoted = await callProcedure(
      t,
      'query',
      'payments.quoteDiscount',
      {
        eventId: ev.eventId,
        selectedSlot: ev.slotId,
        selectedTickets: [{ ticketTypeId: press, quantity: 1 }],
        discountCode: 'wrong',
      },
      { cookie: buyer.cookie },
    );
    expect(quoted.status).toBe(404);
    expect(JSON.stringify(quoted.body)).not.toContain('Press Pass');
    // Sold out, it still cannot be waited for: an offer would go round the code.
    const { ticketTypes } = tablesOf(t.deps.db);
    await t.deps.db
      .update(ticketTypes)
      .set({ availableTickets: 0, totalTickets: 0 })
      .where(eq(ticketTypes.id, press));
    const wait = await callProcedure(
      t,
      'mutation',
      'waitlist.join',
      { ticketTypeId: press, quantity: 1, details: DETAILS },
      { cookie: buyer.cookie },
    );
    expect(wait.status).toBe(404);
    expect(await countOfOn(t.deps.db, stalls)).toMatchObject({ available: 100, held: 0 });
  });

  it('is shown and sold with the code that unlocks it, the code counted like a discount code', async () => {
    t = await createTestAppOn(testEngine(), { HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner, stalls, press } = await organiserEvent();
    await hide(ev, owner.cookie, press);
    const id = await codeOf(ev, owner.cookie, {
      code: 'FanClub',
      unlocksTicketTypeIds: [press],
      maxUses: 2,
      maxUsesPerBuyer: 1,
    });
    // Case-insensitive, as discount codes are; the buyer sees it marked hidden.
    const shown = await shownTypes(ev, 'fanclub');
    expect(shown.ids).toEqual([stalls, press]);
    const page = await callProcedure(t, 'query', 'events.byId', { id: ev.eventId, code: 'FANCLUB' });
    expect(JSON.stringify(page.data)).toContain('"isHidden":true');

    const first = await signedInUser(t);
    const session = await buy(ev, first.cookie, press, 'FANCLUB');
    expect(session).toMatchObject({ discountPaise: 0, subtotalPaise: 30_000 });
    // The confirmation names the type bought and shows no ₹0.00 discount line.
    const { bookings } = tablesOf(t.deps.db);
    const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.orderId, session.orderId));
    const mail = (await mailOn(t, `booking-confirmed:${booking!.id}`))!;
    expect(mail.text).toContain('Press Pass');
    expect(mail.text).not.toContain('Discount (code');
    expect(mail.html).not.toContain('Discount (code');
    expect(await usesOf(id)).toBe(1);
    // Its per-buyer limit…
    expect((await start(ev, first.cookie, press, 'fanclub')).body.error?.message).toBe(
      DISCOUNT_REFUSALS.alreadyUsed,
    );
    // …and its total: the second use is held, the third refused, the release gives it back.
    const secondBuyer = await signedInUser(t);
    const second = await start(ev, secondBuyer.cookie, press, 'fanclub');
    expect(second.status).toBe(200);
    const late = await signedInUser(t);
    expect((await start(ev, late.cookie, press, 'fanclub')).body.error?.message).toBe(
      DISCOUNT_REFUSALS.usedUp,
    );
    const released = await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: (second.data as CheckoutSession).holdId, reason: 'cancelled' },
      { cookie: secondBuyer.cookie },
    );
    expect(released.data).toEqual({ released: true });
    expect(await usesOf(id)).toBe(1);
    expect((await start(ev, late.cookie, press, 'fanclub')).status).toBe(200);
    expect(await usesOf(id)).toBe(2);
    // An access code alone is not a discount: on public types only it is refused as not for them.
    expect((await start(ev, (await signedInUser(t)).cookie, stalls, 'fanclub')).body.error?.message).toBe(
      DISCOUNT_REFUSALS.notForTickets,
    );
    // The team's preview shows every type.
    const preview = await callProcedure(
      t,
      'query',
      'organiser.preview',
      { eventId: ev.eventId },
      { cookie: owner.cookie },
    );
    expect(JSON.stringify(preview.data)).toContain('Press Pass');
  });

  it('refuses an expired, a deactivated, a mismatched and another event’s code', async () => {
    t = await createTestAppOn(testEngine());
    const { ev, owner, stalls, press } = await organiserEvent();
    const other = await organiserEvent();
    await hideInDb(press);
    await hideInDb(other.press);
    const now = t.clock.now().getTime();
    await codeOf(ev, owner.cookie, {
      code: 'EARLYBIRD',
      unlocksTicketTypeIds: [press],
      validUntil: new Date(now + 60_000).toISOString(),
    });
    const off = await codeOf(ev, owner.cookie, { code: 'OFF', unlocksTicketTypeIds: [press] });
    await callProcedure(
      t,
      'mutation',
      'console.setDiscountCodeActive',
      { eventId: ev.eventId, discountCodeId: off, isActive: false },
      { cookie: owner.cookie },
    );
    await codeOf(other.ev, other.owner.cookie, { code: 'OTHERS', unlocksTicketTypeIds: [other.press] });
    // Unlocks only the public type: does not open the hidden one.
    await codeOf(ev, owner.cookie, {
      code: 'STALLS',
      kind: 'percent',
      percentOff: 10,
      unlocksTicketTypeIds: [stalls],
    });
    const buyer = await signedInUser(t);

    expect((await shownTypes(ev, 'earlybird')).ids).toEqual([stalls, press]);
    for (const code of ['OFF', 'OTHERS', 'STALLS']) {
      expect((await shownTypes(ev, code)).ids, code).toEqual([stalls]);
      const held = await start(ev, buyer.cookie, press, code);
      expect(held.status, code).toBe(404);
      expect(held.body.error?.message).toBe(LOCKED_TYPE_MESSAGE);
    }
    await t.clock.advance(120_000);
    expect((await shownTypes(ev, 'earlybird')).ids).toEqual([stalls]);
    // The buyer knows the code: its own refusal, the type's name still unsaid.
    const expired = await start(ev, buyer.cookie, press, 'earlybird');
    expect(expired.body.error?.message).toBe(DISCOUNT_REFUSALS.expired);
    expect(await countOfOn(t.deps.db, press)).toMatchObject({ available: 100, held: 0 });
  });
});

describe('the last use of an access code under concurrency', () => {
  it('50 buyers racing for the last use: exactly one holds the hidden type, the rest are told it is used up', async () => {
    t = await createTestAppOn(testEngine(), { HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner, press } = await organiserEvent();
    await hideInDb(press);
    const id = await codeOf(ev, owner.cookie, { code: 'SPONSOR', unlocksTicketTypeIds: [press], maxUses: 2 });
    await buy(ev, (await signedInUser(t)).cookie, press, 'sponsor');
    const buyers = await Promise.all(Array.from({ length: 50 }, () => signedInUser(t)));
    const results = await Promise.all(buyers.map((b) => start(ev, b.cookie, press, 'sponsor')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.body.error?.message).toBe(DISCOUNT_REFUSALS.usedUp);
    }
    expect(await usesOf(id)).toBe(2);
    expect(await countOfOn(t.deps.db, press)).toMatchObject({ available: 98 });
  });
});

describe('bad input', () => {
  it('refuses a code with neither a discount nor a type to unlock, another event’s type, and an over-long code', async () => {
    t = await createTestAppOn(testEngine());
    const { ev, owner } = await organiserEvent();
    const empty = await createCode(ev, owner.cookie, { code: 'NOTHING' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain(DISCOUNT_MESSAGES.unlocksNothing);
    const foreign = await createCode(ev, owner.cookie, {
      code: 'FOREIGN',
      unlocksTicketTypeIds: [(await createTicketedEventOn(t.deps.db)).ticketTypeIds[0]],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error?.data.fieldErrors?.unlocksTicketTypeIds).toBe(DISCOUNT_MESSAGES.typeUnknown);
    const notList = await createCode(ev, owner.cookie, { code: 'BAD', unlocksTicketTypeIds: 'all' });
    expect(notList.status).toBe(400);
    for (const [path, input] of [
      ['events.byId', { id: ev.eventId, code: 'x'.repeat(50_000) }],
      ['tickets.options', { eventId: ev.eventId, code: 'x'.repeat(50_000) }],
      ['tickets.options', { eventId: ev.eventId, code: 42 }],
    ] as const) {
      const res = await callProcedure(t, 'query', path, input);
      expect(res.status, path).toBe(400);
    }
    const { discountCodes } = tablesOf(t.deps.db);
    expect(await t.deps.db.select().from(discountCodes)).toHaveLength(0);
  });
});
