import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { QUOTA_MESSAGES } from '../../shared/quota-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import type { QuotaRow } from '../../src-server/services/quotas/list-quotas.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, quotaCountOn, signedInUser } from '../helpers/engine-fixtures.ts';
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
 * Shared capacity (quotas, issue 40, ADR 0039) through the real procedures: the console creates a
 * quota over ticket types, Proceed's hold takes from the type and the quota in one transaction, every
 * way seats come back gives them to both, buyers see the lesser of the two, and "Copy to all slots"
 * gives each slot its own full house. After every test the inventory invariant holds for types and
 * quotas alike.
 */
let t: TestApp;
afterEach(async () => {
  if (t) await expectInventoryInvariantOn(t.deps.db);
  await t?.close();
});

const HALL_TYPES = [
  { name: 'Stalls', pricePaise: 60_000, totalTickets: 40 },
  { name: 'Balcony', pricePaise: 40_000, totalTickets: 40 },
];

async function organiserEvent(types = HALL_TYPES) {
  const owner = await account(t, 'organiser');
  const ev = await createTicketedEventOn(t.deps.db, { types });
  const { events } = tablesOf(t.deps.db);
  await t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId));
  return { ev, owner };
}

function createQuota(cookie: string, eventId: string, quota: object) {
  return callProcedure(t, 'mutation', 'console.createQuota', { eventId, quota }, { cookie });
}

async function quotaOf(ev: TicketedEvent, cookie: string, capacity: number, name = 'Hall'): Promise<string> {
  const res = await createQuota(cookie, ev.eventId, {
    name,
    capacity,
    slotIds: [ev.slotId],
    ticketTypeIds: ev.ticketTypeIds,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.data as { id: string }).id;
}

async function listQuotas(eventId: string, cookie: string): Promise<QuotaRow[]> {
  const res = await callProcedure(t, 'query', 'console.quotas', { eventId }, { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data as QuotaRow[];
}

function start(ev: TicketedEvent, cookie: string, typeIndex: number, quantity: number, slotId = ev.slotId) {
  return callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[typeIndex]!, quantity }],
      ticketDetails: DETAILS,
    },
    { cookie },
  );
}

async function pay(cookie: string, session: CheckoutSession): Promise<string> {
  const confirmed = await confirm(t, cookie, await payWithSimulator(t, session.orderId));
  expect(confirmed.data).toMatchObject({ outcome: 'booked' });
  return (confirmed.data as { bookingId: string }).bookingId;
}

/** What the ticket selection and the event page show a buyer for each type of the slot. */
async function shownAvailable(ev: TicketedEvent) {
  const options = (await callProcedure(t, 'query', 'tickets.options', { eventId: ev.eventId })).data as {
    dates: { slots: { id: string; ticketTypes: { name: string; availableTickets: number }[] }[] }[];
  };
  const page = (await callProcedure(t, 'query', 'events.byId', { id: ev.eventId })).data as {
    tickets: { slots: { id: string; tickets: { name: string; availableTickets: number }[] }[] }[];
  };
  const slot = options.dates[0]!.slots.find((s) => s.id === ev.slotId)!;
  const pageSlot = page.tickets[0]!.slots.find((s) => s.id === ev.slotId)!;
  const shown = Object.fromEntries(slot.ticketTypes.map((type) => [type.name, type.availableTickets]));
  expect(Object.fromEntries(pageSlot.tickets.map((type) => [type.name, type.availableTickets]))).toEqual(
    shown,
  );
  return shown;
}

describe('a quota shared by two ticket types', () => {
  it('takes from the type and the quota; refuses past the quota though the type has seats; a release gives back to both', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
    const { ev, owner } = await organiserEvent();
    const quotaId = await quotaOf(ev, owner.cookie, 3);
    const [stalls, balcony] = ev.ticketTypeIds as [string, string];

    const first = await signedInUser(t);
    const held = await start(ev, first.cookie, 0, 2);
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect(await countOfOn(t.deps.db, stalls)).toMatchObject({ available: 38, held: 2 });
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ available: 1, held: 2 });
    expect(await shownAvailable(ev)).toEqual({ Stalls: 1, Balcony: 1 });

    // Two Balcony seats: the type has 40, the hall only 1 more.
    const second = await signedInUser(t);
    const tooMany = await start(ev, second.cookie, 1, 2);
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error?.message).toBe('Insufficient tickets available for Balcony');
    expect(await countOfOn(t.deps.db, balcony)).toMatchObject({ available: 40, held: 0 });

    const last = await start(ev, second.cookie, 1, 1);
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ available: 0, held: 3 });
    // Sold Out to buyers, though each type still has seats of its own.
    expect(await shownAvailable(ev)).toEqual({ Stalls: 0, Balcony: 0 });
    const third = await signedInUser(t);
    const refused = await start(ev, third.cookie, 0, 1);
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe('Stalls: Sold Out');
    expect(await listQuotas(ev.eventId, owner.cookie)).toEqual([
      expect.objectContaining({ id: quotaId, name: 'Hall', capacity: 3, sold: 0, held: 3, left: 0 }),
    ]);

    const release = await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: (held.data as CheckoutSession).holdId, reason: 'cancelled' },
      { cookie: first.cookie },
    );
    expect(release.data).toEqual({ released: true });
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ available: 2, held: 1 });
    expect(await countOfOn(t.deps.db, stalls)).toMatchObject({ available: 40, held: 0 });
    expect(await shownAvailable(ev)).toEqual({ Stalls: 2, Balcony: 2 });
    expect((await start(ev, third.cookie, 0, 2)).status).toBe(200);
  });

  it('expiry and an organiser’s cancellation give the seats back to the quota; the editor counts sold', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
    const { ev, owner } = await organiserEvent();
    const quotaId = await quotaOf(ev, owner.cookie, 2);
    const buyer = await signedInUser(t);
    const bought = await start(ev, buyer.cookie, 0, 1);
    const bookingId = await pay(buyer.cookie, bought.data as CheckoutSession);
    const abandoned = await start(ev, (await signedInUser(t)).cookie, 1, 1);
    expect(abandoned.status).toBe(200);
    expect(await listQuotas(ev.eventId, owner.cookie)).toEqual([
      expect.objectContaining({ sold: 1, held: 1, left: 0 }),
    ]);

    // The unpaid hold expires: the sweeper gives its seat back to the Balcony and the hall.
    t.clock.advance(60 * 60_000);
    const { sweepExpiredHolds } = await import('../../src-server/services/inventory/holds.ts');
    expect(await sweepExpiredHolds(t.deps.db, t.clock.now())).toBe(1);
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ available: 1, held: 0, sold: 1 });

    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: owner.cookie },
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ available: 2, held: 0, sold: 0 });
    expect(await listQuotas(ev.eventId, owner.cookie)).toEqual([
      expect.objectContaining({ sold: 0, held: 0, left: 2 }),
    ]);
  });

  it('a type without a quota sells as before, up to its own count', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
    const { ev } = await organiserEvent([{ name: 'Gold', pricePaise: 50_000, totalTickets: 2 }]);
    const buyer = await signedInUser(t);
    expect((await start(ev, buyer.cookie, 0, 2)).status).toBe(200);
    const refused = await start(ev, (await signedInUser(t)).cookie, 0, 1);
    expect(refused.body.error?.message).toBe('Gold: Sold Out');
  });
});

describe('the waiting list', () => {
  it('is open once the quota is gone, and a returned seat is offered only as far as the quota allows', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    const quotaId = await quotaOf(ev, owner.cookie, 3);
    const buyer = await signedInUser(t);
    const bookingId = await pay(buyer.cookie, (await start(ev, buyer.cookie, 0, 1)).data as CheckoutSession);
    expect((await start(ev, (await signedInUser(t)).cookie, 1, 2)).status).toBe(200);
    // Stalls has 39 seats of its own, but the hall is full: "Sold Out", so its list is open.
    const waiter = await signedInUser(t);
    const joined = await callProcedure(
      t,
      'mutation',
      'waitlist.join',
      { ticketTypeId: ev.ticketTypeIds[0], quantity: 2, details: { ...DETAILS, email: waiter.email } },
      { cookie: waiter.cookie },
    );
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);

    // One Stalls seat comes back: the hall has one, the waiter wants two, so no offer (and the
    // cancellation stands).
    const cancelled = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: ev.eventId, bookingId },
      { cookie: owner.cookie },
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ available: 1, held: 2, sold: 0 });
    const offers = await callProcedure(t, 'query', 'waitlist.mine', undefined, { cookie: waiter.cookie });
    expect(JSON.stringify(offers.data)).not.toContain('offered');
  });
});

describe('the last seats under concurrency', () => {
  it('50 buyers racing across two ticket types for a quota of 10: exactly 10 get one, and 10 are sold', async () => {
    // One in-process address for all: the per-address caps are off, as in the inventory race.
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    const quotaId = await quotaOf(ev, owner.cookie, 10);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => signedInUser(t)));
    const results = await Promise.all(buyers.map((b, i) => start(ev, b.cookie, i % 2, 1)));
    const won = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(won).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error?.message).toMatch(/^(Stalls|Balcony): Sold Out$/);
    }
    const [stalls, balcony] = ev.ticketTypeIds as [string, string];
    expect((await countOfOn(t.deps.db, stalls)).held + (await countOfOn(t.deps.db, balcony)).held).toBe(10);
    for (const i of won) await pay(buyers[i]!.cookie, results[i]!.data as CheckoutSession);
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ available: 0, held: 0, sold: 10 });
    expect(await listQuotas(ev.eventId, owner.cookie)).toEqual([
      expect.objectContaining({ capacity: 10, sold: 10, held: 0, left: 0 }),
    ]);
  });
});

describe('copy to all slots', () => {
  it('gives each slot its own quota, never a share of the first slot’s; a multi-slot quota is shared', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false', HOLD_SEATS_PER_ADDRESS: '0' });
    const { ev, owner } = await organiserEvent();
    const evening = `${ev.slotId}-evening`;
    const later = (iso: string) => new Date(Date.parse(iso) + 6 * 3_600_000).toISOString();
    const { events, slots, ticketTypes } = tablesOf(t.deps.db);
    await t.deps.db.insert(slots).values({
      id: evening,
      eventDateId: ev.dateId,
      startTime: later(ev.slotStart),
      endTime: later(ev.slotEnd),
    });
    const matineeHall = await quotaOf(ev, owner.cookie, 3);
    const [row] = await t.deps.db.select().from(events).where(eq(events.id, ev.eventId));
    const version = row!.version;
    const copied = await callProcedure(
      t,
      'mutation',
      'organiser.copyTicketTypesToAllSlots',
      { eventId: ev.eventId, version, fromSlotId: ev.slotId },
      { cookie: owner.cookie },
    );
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    const eveningTypes = await t.deps.db
      .select({ id: ticketTypes.id, name: ticketTypes.name })
      .from(ticketTypes)
      .where(eq(ticketTypes.slotId, evening));
    expect(eveningTypes.map((type) => type.name).sort()).toEqual(['Balcony', 'Stalls']);
    const listed = await listQuotas(ev.eventId, owner.cookie);
    expect(listed).toHaveLength(2);
    const eveningHall = listed.find((q) => q.id !== matineeHall)!;
    expect(eveningHall).toMatchObject({
      name: 'Hall',
      capacity: 3,
      sold: 0,
      held: 0,
      left: 3,
      slotIds: [evening],
    });
    expect(eveningHall.ticketTypes.map((type) => type.id).sort()).toEqual(
      eveningTypes.map((type) => type.id).sort(),
    );

    // The matinee sells most of its hall; the evening still has its own three seats.
    expect((await start(ev, (await signedInUser(t)).cookie, 0, 2)).status).toBe(200);
    const eveningStalls = eveningTypes.find((x) => x.name === 'Stalls')!.id;
    const eveningBalcony = eveningTypes.find((x) => x.name === 'Balcony')!.id;
    const eveningEv = { ...ev, slotId: evening, ticketTypeIds: [eveningStalls, eveningBalcony] };
    expect((await start(eveningEv, (await signedInUser(t)).cookie, 0, 2)).status).toBe(200);
    expect(await quotaCountOn(t, matineeHall)).toMatchObject({ available: 1, held: 2 });
    expect(await quotaCountOn(t, eveningHall.id)).toMatchObject({ available: 1, held: 2 });

    // Running it again adds no type and no quota.
    const again = await callProcedure(
      t,
      'mutation',
      'organiser.copyTicketTypesToAllSlots',
      { eventId: ev.eventId, version: (copied.data as { version: number }).version, fromSlotId: ev.slotId },
      { cookie: owner.cookie },
    );
    expect(again.data).toMatchObject({ created: 0 });
    expect(await listQuotas(ev.eventId, owner.cookie)).toHaveLength(2);

    // A quota the organiser chose for both slots: one Balcony seat for the matinee and evening together.
    const pass = await createQuota(owner.cookie, ev.eventId, {
      name: 'Balcony, both shows',
      capacity: 1,
      slotIds: [ev.slotId, evening],
      ticketTypeIds: [ev.ticketTypeIds[1], eveningBalcony],
    });
    expect(pass.status, JSON.stringify(pass.body)).toBe(200);
    expect((await start(ev, (await signedInUser(t)).cookie, 1, 1)).status).toBe(200);
    // The evening's hall has a seat left, but the shared Balcony seat is gone.
    const refused = await start(eveningEv, (await signedInUser(t)).cookie, 1, 1);
    expect(refused.body.error?.message).toBe('Balcony: Sold Out');
    expect((await start(eveningEv, (await signedInUser(t)).cookie, 0, 1)).status).toBe(200);
  });
});

describe('bad input', () => {
  it('refuses a capacity that is not a positive whole number, another event’s slot or type, and a capacity below what is sold and held', async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
    const { ev, owner } = await organiserEvent();
    const fields = { name: 'Hall', capacity: 10, slotIds: [ev.slotId], ticketTypeIds: ev.ticketTypeIds };
    for (const capacity of [0, -5, 1.5, '10', 10_000_001]) {
      const res = await createQuota(owner.cookie, ev.eventId, { ...fields, capacity });
      expect(res.status, String(capacity)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(QUOTA_MESSAGES.capacityPositive);
    }
    const unnamed = await createQuota(owner.cookie, ev.eventId, { ...fields, name: '   ' });
    expect(JSON.stringify(unnamed.body)).toContain(QUOTA_MESSAGES.nameRequired);
    const noTypes = await createQuota(owner.cookie, ev.eventId, { ...fields, ticketTypeIds: [] });
    expect(JSON.stringify(noTypes.body)).toContain(QUOTA_MESSAGES.typesRequired);

    const other = await createTicketedEventOn(t.deps.db);
    const foreignType = await createQuota(owner.cookie, ev.eventId, {
      ...fields,
      ticketTypeIds: [ev.ticketTypeIds[0], other.ticketTypeIds[0]],
    });
    expect(foreignType.status).toBe(400);
    expect(foreignType.body.error?.message).toBe(QUOTA_MESSAGES.typeNotInSlots);
    const foreignSlot = await createQuota(owner.cookie, ev.eventId, {
      ...fields,
      slotIds: [ev.slotId, other.slotId],
      ticketTypeIds: [...ev.ticketTypeIds, ...other.ticketTypeIds],
    });
    expect(foreignSlot.status).toBe(400);
    expect(foreignSlot.body.error?.message).toBe(QUOTA_MESSAGES.slotUnknown);

    // Three Stalls seats sold and two held before the quota: it counts them, and may not go below 5.
    const buyer = await signedInUser(t);
    await pay(buyer.cookie, (await start(ev, buyer.cookie, 0, 3)).data as CheckoutSession);
    expect((await start(ev, (await signedInUser(t)).cookie, 1, 2)).status).toBe(200);
    const below = await createQuota(owner.cookie, ev.eventId, { ...fields, capacity: 4 });
    expect(below.status).toBe(400);
    expect(below.body.error?.message).toBe(QUOTA_MESSAGES.belowTaken(5));
    const quotaId = await quotaOf(ev, owner.cookie, 5);
    expect(await listQuotas(ev.eventId, owner.cookie)).toEqual([
      expect.objectContaining({ capacity: 5, sold: 3, held: 2, left: 0 }),
    ]);
    const update = (capacity: number, id = quotaId) =>
      callProcedure(
        t,
        'mutation',
        'console.updateQuota',
        { eventId: ev.eventId, quotaId: id, quota: { ...fields, capacity } },
        { cookie: owner.cookie },
      );
    expect((await update(4)).body.error?.message).toBe(QUOTA_MESSAGES.belowTaken(5));
    expect((await update(8)).status).toBe(200);
    expect(await quotaCountOn(t, quotaId)).toMatchObject({ capacity: 8, available: 3 });
    const unknown = await update(8, 'qt-nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe(QUOTA_MESSAGES.quotaNotFound);
    // Another event's quota through this event's id: not found, unchanged.
    const otherOwner = await account(t, 'organiser');
    const { events } = tablesOf(t.deps.db);
    await t.deps.db.update(events).set({ ownerId: otherOwner.userId }).where(eq(events.id, other.eventId));
    const sideways = await callProcedure(
      t,
      'mutation',
      'console.removeQuota',
      { eventId: other.eventId, quotaId },
      { cookie: otherOwner.cookie },
    );
    expect(sideways.status).toBe(404);
    expect((await quotaCountOn(t, quotaId)).capacity).toBe(8);
    const removed = await callProcedure(
      t,
      'mutation',
      'console.removeQuota',
      { eventId: ev.eventId, quotaId },
      { cookie: owner.cookie },
    );
    expect(removed.status).toBe(200);
    expect(await listQuotas(ev.eventId, owner.cookie)).toEqual([]);
  });
});
