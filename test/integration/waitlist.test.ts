import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { HOARDING_MESSAGES } from '../../shared/hoarding-messages.ts';
import { RECIPIENT_ADDRESS_MESSAGES } from '../../shared/recipient-address.ts';
import {
  QUEUE_TOKEN_HEADER,
  WAITING_ROOM_MESSAGES,
  type WaitingRoomStatus,
} from '../../shared/waiting-room.ts';
import { WAITLIST_MESSAGES } from '../../shared/waitlist-schemas.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { startBackgroundJobs } from '../../src-server/jobs.ts';
import { cancelBookingSteps } from '../../src-server/services/bookings/cancel-booking-in.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { updateTicketType } from '../../src-server/services/event-editor/update-ticket-type.ts';
import { HOLD_GRACE_MS, sweepExpiredHolds } from '../../src-server/services/inventory/holds.ts';
import { holdSweeperJob } from '../../src-server/services/payments/jobs.ts';
import { admitDueVisitors } from '../../src-server/services/waiting-room/admit-visitors.ts';
import { releaseAndPassOnSteps } from '../../src-server/services/waitlist/pass-on.ts';
import { tendWaitlists, waitlistJob } from '../../src-server/services/waitlist/waitlist-job.ts';
import { confirm, payWithSimulator, proceed, startInput } from '../helpers/checkout-flow.ts';
import { account, consoleWorld, type Person, signedInUser } from '../helpers/engine-fixtures.ts';
import {
  addLateShowOn,
  countOfOn,
  createTicketedEventOn,
  DETAILS,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const MINUTE = 60_000;

/** Runs on both engines (vitest.config.ts ON_BOTH_ENGINES). */
const engine = testEngine();
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

type Buyer = Person;

/** The engine's tables, for the rows this file reads and writes itself. */
const tables = () => tablesOf(t.deps.db);
const countOf = (ticketTypeId: string) => countOfOn(t.deps.db, ticketTypeId);
const expectInventoryInvariant = () => expectInventoryInvariantOn(t.deps.db);

/** A sold-out event: one type of `total` seats, all bought by one buyer in bookings of `perBooking`. */
async function soldOutEvent(total = 4, perBooking = 2) {
  const ev = await createTicketedEventOn(t.deps.db, {
    types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: total }],
  });
  const owner = await signedInUser(t);
  const bookingIds: string[] = [];
  for (let sold = 0; sold < total; sold += perBooking) {
    bookingIds.push(await buy(owner, ev, perBooking));
  }
  expect((await countOf(typeOf(ev))).available).toBe(0);
  return { ev, owner, bookingIds };
}

/**
 * A sold-out event of two seats (one booking of two) and two buyers on its list: `a` for two, then,
 * 1 ms later so the order is theirs, `b` for `secondQuantity`.
 */
async function twoInLine(secondQuantity: number) {
  const { ev, bookingIds } = await soldOutEvent(2, 2);
  const [a, b] = [await signedInUser(t), await signedInUser(t)];
  const first = await joined(a, ev, 2);
  t.clock.advance(1);
  const second = await joined(b, ev, secondQuantity);
  return { ev, bookingIds, a, b, first, second };
}

const typeOf = (ev: TicketedEvent) => ev.ticketTypeIds[0]!;

async function buy(buyer: Buyer, ev: TicketedEvent, quantity: number): Promise<string> {
  const session = await proceed(t, buyer.cookie, ev, quantity);
  return payFor(buyer, session);
}

async function payFor(buyer: Buyer, session: Pick<CheckoutSession, 'orderId'>): Promise<string> {
  const res = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const outcome = res.data as { outcome: string; bookingId: string };
  expect(outcome.outcome).toBe('booked');
  return outcome.bookingId;
}

function join(buyer: Buyer, ev: TicketedEvent, quantity: number) {
  return callProcedure(
    t,
    'mutation',
    'waitlist.join',
    { ticketTypeId: typeOf(ev), quantity, details: { ...DETAILS, email: buyer.email, name: buyer.name } },
    { cookie: buyer.cookie },
  );
}

async function joined(buyer: Buyer, ev: TicketedEvent, quantity: number) {
  const res = await join(buyer, ev, quantity);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data as { entryId: string; place: number };
}

/** Pay or Leave on a waiting-list entry, as `buyer`. */
function onEntry(buyer: Buyer, action: 'payOffer' | 'leave', entryId: string) {
  return callProcedure(t, 'mutation', `waitlist.${action}`, { entryId }, { cookie: buyer.cookie });
}

async function entry(entryId: string) {
  const { waitlistEntries } = tables();
  const [found] = await t.deps.db.select().from(waitlistEntries).where(eq(waitlistEntries.id, entryId));
  return found!;
}

async function holdOf(entryId: string) {
  const e = await entry(entryId);
  if (!e.offerHoldId) return undefined;
  const { holds } = tables();
  const [hold] = await t.deps.db.select().from(holds).where(eq(holds.id, e.offerHoldId));
  return hold;
}

function cancelBooking(bookingId: string) {
  return runnerFor(t.deps.db).write((tx) =>
    cancelBookingSteps(tx as WriteTx, t.deps, bookingId, 'organiser', t.clock.now()),
  );
}

async function offerMailsTo(email: string) {
  const { outbox } = tables();
  return (await t.deps.db.select().from(outbox).where(eq(outbox.to, email)).orderBy(asc(outbox.id))).filter(
    (m) => m.idempotencyKey.startsWith('waitlist-offer:'),
  );
}

/** Sets columns of an event (the organiser's limits). */
async function setEvent(
  eventId: string,
  values: Partial<ReturnType<typeof tablesOf>['events']['$inferInsert']>,
) {
  const { events } = tables();
  await t.deps.db.update(events).set(values).where(eq(events.id, eventId));
}

async function eventRow(eventId: string) {
  const { events } = tables();
  const [found] = await t.deps.db.select().from(events).where(eq(events.id, eventId));
  return found!;
}

describe('joining the waiting list', () => {
  it('takes a verified account on a sold-out type, once per slot, and tells its place', async () => {
    t = await createTestAppOn(engine);
    const { ev } = await soldOutEvent();
    const [a, b] = [await signedInUser(t), await signedInUser(t)];
    expect((await joined(a, ev, 2)).place).toBe(1);
    t.clock.advance(1);
    expect((await joined(b, ev, 1)).place).toBe(2);

    const again = await join(a, ev, 1);
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(WAITLIST_MESSAGES.alreadyOnList);

    const unverified = await signedInUser(t, { isEmailVerified: false });
    const refused = await join(unverified, ev, 1);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toBe(HOARDING_MESSAGES.emailNotVerified);

    const mine = await callProcedure(t, 'query', 'waitlist.mine', undefined, { cookie: b.cookie });
    expect(mine.data).toMatchObject([
      { status: 'waiting', place: 2, quantity: 1, ticketTypeName: 'Gold Circle' },
    ]);
  });

  it('refuses a type that is not sold out, more than the per-order maximum, and signed-out callers', async () => {
    t = await createTestAppOn(engine);
    const ev = await createTicketedEventOn(t.deps.db);
    const a = await signedInUser(t);
    const open = await join(a, ev, 1);
    expect(open.status).toBe(409);
    expect(open.body.error?.message).toBe(WAITLIST_MESSAGES.notSoldOut);

    const { ticketTypes } = tables();
    await t.deps.db.update(ticketTypes).set({ availableTickets: 0, totalTickets: 0 });
    await t.deps.db.update(ticketTypes).set({ maxPerOrder: 3 });
    const tooMany = await join(a, ev, 4);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error?.message).toBe('You can book at most 3 tickets of Gold Circle');
    const bad = await callProcedure(
      t,
      'mutation',
      'waitlist.join',
      { ticketTypeId: typeOf(ev), quantity: 0, details: DETAILS },
      { cookie: a.cookie },
    );
    expect(bad.status).toBe(400);
    const anonymous = await callProcedure(t, 'mutation', 'waitlist.join', {
      ticketTypeId: typeOf(ev),
      quantity: 1,
      details: DETAILS,
    });
    expect(anonymous.status).toBe(401);
    expect(await t.deps.db.select().from(tables().waitlistEntries)).toEqual([]);
  });

  it('refuses more than the event’s per-buyer maximum, counting what the account already bought', async () => {
    t = await createTestAppOn(engine);
    const { ev, owner } = await soldOutEvent(4, 2);
    await setEvent(ev.eventId, { maxTicketsPerBuyer: 5 });
    // The owner bought all four seats: one more fits the maximum of five, two do not.
    const over = await join(owner, ev, 2);
    expect(over.status).toBe(409);
    expect(over.body.error?.message).toBe(HOARDING_MESSAGES.perBuyerMax(5, 4));
    expect((await joined(owner, ev, 1)).place).toBe(1);
    // Someone with nothing yet may ask for up to the maximum (within the per-order one).
    const other = await signedInUser(t);
    t.clock.advance(1); // joined after the owner, so the order is theirs and not the ids'
    expect((await joined(other, ev, 2)).place).toBe(2);
  });
});

describe('the GST invoice of an offer (Rule 46)', () => {
  /** A Karnataka business: its GSTIN needs the recipient's address on the invoice. */
  const KA_BUSINESS = { buyerGstin: '29AAGCB7383J1Z4', buyerLegalName: 'Kaveri Events Pvt Ltd' };
  const ADDRESS = '80 Feet Road, Indiranagar, Bengaluru 560038';

  function joinWith(buyer: Buyer, ev: TicketedEvent, quantity: number, details: object) {
    return callProcedure(
      t,
      'mutation',
      'waitlist.join',
      {
        ticketTypeId: typeOf(ev),
        quantity,
        details: { ...DETAILS, email: buyer.email, name: buyer.name, ...details },
      },
      { cookie: buyer.cookie },
    );
  }

  /** A sold-out event of two ₹500 seats, sold by a GST-registered Mumbai organiser. */
  async function registeredSoldOut() {
    const sold = await soldOutEvent(2, 2);
    const organiser = await account(t, 'organiser');
    await saveTaxProfile(t, organiser.userId);
    await setEvent(sold.ev.eventId, { ownerId: organiser.userId });
    return sold;
  }

  it('a GSTIN without an address is refused at join with the field error; with one, the offer’s invoice carries it', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds } = await registeredSoldOut();
    const buyer = await signedInUser(t);
    // The attack: a GSTIN and no address, which the offer would be invoiced without (no Proceed asks).
    const refused = await joinWith(buyer, ev, 2, KA_BUSINESS);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(RECIPIENT_ADDRESS_MESSAGES.required);
    expect(refused.body.error?.data.fieldErrors?.buyerAddress).toBe(RECIPIENT_ADDRESS_MESSAGES.required);
    expect(await t.deps.db.select().from(tables().waitlistEntries)).toEqual([]);

    const joinedEntry = (await joinWith(buyer, ev, 2, { ...KA_BUSINESS, buyerAddress: ADDRESS })).data as {
      entryId: string;
    };
    await cancelBooking(bookingIds[0]!);
    expect((await entry(joinedEntry.entryId)).status).toBe('offered');
    const pay = await onEntry(buyer, 'payOffer', joinedEntry.entryId);
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    const bookingId = await payFor(buyer, pay.data as CheckoutSession);
    const { invoices } = tables();
    const [invoice] = (
      await t.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId))
    ).filter((i) => i.kind === 'admission');
    // 2 × ₹500 a concert seat: ₹500 per person is exempt (entry 81), 1,000.00 with no tax; the
    // recipient is the Karnataka business, with the address it gave at join.
    expect(invoice).toMatchObject({
      buyerGstin: KA_BUSINESS.buyerGstin,
      buyerState: 'Karnataka',
      buyerAddress: ADDRESS,
      taxableValuePaise: 100_000,
      totalPaise: 100_000,
    });
  });

  it('an unregistered buyer is asked for the address from a taxable value of ₹50,000 (quantity × price)', async () => {
    t = await createTestAppOn(engine);
    const { ev } = await registeredSoldOut();
    const { ticketTypes } = tables();
    // 2 × ₹29,500 tax included at 18 % (a concert above ₹500: taxed): 59,000 / 1.18 = 50,000.00 taxable.
    await t.deps.db
      .update(ticketTypes)
      .set({ pricePaise: 2_950_000 })
      .where(eq(ticketTypes.id, typeOf(ev)));
    const buyer = await signedInUser(t);
    const refused = await joinWith(buyer, ev, 2, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error?.data.fieldErrors?.buyerAddress).toBe(RECIPIENT_ADDRESS_MESSAGES.required);
    // One seat: 29,500 / 1.18 = 25,000.00 taxable, below: no address asked, and none kept.
    const one = (await joinWith(buyer, ev, 1, { buyerAddress: ADDRESS })).data as { entryId: string };
    expect((await entry(one.entryId)).details.buyerAddress).toBeUndefined();
  });
});

describe('offers when seats come back', () => {
  it('a cancelled booking’s seats are offered in the same transaction, skipping an entry that wants more', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds } = await soldOutEvent(4, 2);
    const [big, small, later] = [await signedInUser(t), await signedInUser(t), await signedInUser(t)];
    const bigEntry = await joined(big, ev, 3);
    t.clock.advance(1);
    const smallEntry = await joined(small, ev, 2);
    t.clock.advance(1);
    const laterEntry = await joined(later, ev, 1);

    await cancelBooking(bookingIds[0]!);
    // Two seats: the head wants three and keeps its place; the next who fits gets them, nothing is left.
    expect((await entry(bigEntry.entryId)).status).toBe('waiting');
    expect((await entry(smallEntry.entryId)).status).toBe('offered');
    expect((await entry(laterEntry.entryId)).status).toBe('waiting');
    expect(await countOf(typeOf(ev))).toMatchObject({ available: 0, held: 2, sold: 2 });
    const hold = (await holdOf(smallEntry.entryId))!;
    expect(hold).toMatchObject({ status: 'active', userId: small.userId, subtotalPaise: 100_000 });
    const offerMinutes = await eventRow(ev.eventId);
    expect(Date.parse(hold.sessionExpiresAt)).toBe(
      t.clock.now().getTime() + offerMinutes.waitlistOfferMinutes * MINUTE,
    );
    const mails = await offerMailsTo(small.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/waitlist/offers/${smallEntry.entryId}`);
    await expectInventoryInvariant();

    // A Proceed by someone else finds nothing to take.
    const stranger = await signedInUser(t);
    const refused = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
      cookie: stranger.cookie,
    });
    expect(refused.status).toBe(409);
  });

  it('passes over an entry the offer would take over the per-buyer maximum (bought since joining); it keeps its place', async () => {
    t = await createTestAppOn(engine);
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [
        { name: 'Gold Circle', pricePaise: 50_000, totalTickets: 2 },
        { name: 'Silver', pricePaise: 20_000, totalTickets: 10 },
      ],
    });
    await setEvent(ev.eventId, { maxTicketsPerBuyer: 3 });
    const owner = await signedInUser(t);
    const goldBooking = await buy(owner, ev, 2);
    const [a, b] = [await signedInUser(t), await signedInUser(t)];
    const first = await joined(a, ev, 2); // nothing yet: two fit the maximum of three
    t.clock.advance(1);
    const second = await joined(b, ev, 1);
    // Then `a` buys two Silver seats of the same event: two more Gold would make four.
    const silver = { selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[1]!, quantity: 2 }] };
    await payFor(a, await proceed(t, a.cookie, ev, 2, silver));

    await cancelBooking(goldBooking);
    expect((await entry(first.entryId)).status).toBe('waiting');
    expect(await offerMailsTo(a.email)).toHaveLength(0);
    expect((await entry(second.entryId)).status).toBe('offered');
    expect(await countOf(typeOf(ev))).toMatchObject({ available: 1, held: 1, sold: 0 });
    await expectInventoryInvariant();
  });

  it('two offers that together pass the per-buyer maximum: Pay refuses either while the other is held, and pays one once the other is left', async () => {
    t = await createTestAppOn(engine);
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: 2 }],
    });
    // A second show of the event, with its own type: the list is once per show, so one account can
    // wait on both, and be offered both.
    const { slotId: lateSlotId, typeId: lateTypeId } = await addLateShowOn(t.deps.db, ev, 2);
    const owner = await signedInUser(t);
    const early = await buy(owner, ev, 2);
    const late = await payFor(
      owner,
      await proceed(t, owner.cookie, ev, 2, {
        selectedSlot: lateSlotId,
        selectedTickets: [{ ticketTypeId: lateTypeId, quantity: 2 }],
      }),
    );
    await setEvent(ev.eventId, { maxTicketsPerBuyer: 4 });
    const fan = await signedInUser(t);
    const onEarly = await joined(fan, ev, 2);
    const onLate = await callProcedure(
      t,
      'mutation',
      'waitlist.join',
      { ticketTypeId: lateTypeId, quantity: 2, details: { ...DETAILS, email: fan.email, name: fan.name } },
      { cookie: fan.cookie },
    );
    expect(onLate.status, JSON.stringify(onLate.body)).toBe(200);
    const lateEntryId = (onLate.data as { entryId: string }).entryId;
    await cancelBooking(early);
    await cancelBooking(late);
    // Two plus two fit four, so both were offered; then the organiser lowers the maximum to three.
    expect((await entry(onEarly.entryId)).status).toBe('offered');
    expect((await entry(lateEntryId)).status).toBe('offered');
    await setEvent(ev.eventId, { maxTicketsPerBuyer: 3 });

    for (const entryId of [onEarly.entryId, lateEntryId]) {
      const refused = await onEntry(fan, 'payOffer', entryId);
      expect(refused.status).toBe(409);
      expect(refused.body.error?.message).toBe(HOARDING_MESSAGES.perBuyerMax(3, 2));
    }
    expect(await t.deps.db.select().from(tables().paymentOrders)).toHaveLength(2); // the owner's two
    expect((await onEntry(fan, 'leave', lateEntryId)).status).toBe(200);
    const pay = await onEntry(fan, 'payOffer', onEarly.entryId);
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    await payFor(fan, pay.data as CheckoutSession);
    expect((await entry(onEarly.entryId)).status).toBe('booked');
    await expectInventoryInvariant();
  });

  it('a Proceed by the offer’s holder on that slot is refused, and the offer stays theirs to pay', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds, a, first } = await twoInLine(1);
    await cancelBooking(bookingIds[0]!);
    expect((await entry(first.entryId)).status).toBe('offered');
    const { simulatorOrders } = tables();
    const gatewayOrders = async () =>
      (await t.deps.db.select({ id: simulatorOrders.id }).from(simulatorOrders)).length;
    const ordersBefore = await gatewayOrders();

    const res = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), { cookie: a.cookie });
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe(WAITLIST_MESSAGES.offerPending);
    // Refused before the gateway was asked for an order nobody would pay.
    expect(await gatewayOrders()).toBe(ordersBefore);
    expect((await entry(first.entryId)).status).toBe('offered');
    expect((await holdOf(first.entryId))!.status).toBe('active');
    expect(await countOf(typeOf(ev))).toMatchObject({ available: 0, held: 2, sold: 0 });
    await expectInventoryInvariant();
    expect((await onEntry(a, 'payOffer', first.entryId)).status).toBe(200);
  });

  it('an offer past its time to pay, not yet swept, is not named to its holder’s Proceed: the unpaid session’s cool-down is', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds, a, first } = await twoInLine(1);
    await cancelBooking(bookingIds[0]!);
    const offer = await entry(first.entryId);
    t.clock.set(new Date(Date.parse(offer.offerExpiresAt!) + 1_000)); // inside the hold's grace
    expect((await holdOf(first.entryId))!.status).toBe('active');

    // Pay would say the offer has ended; Proceed must not send them to pay it. (The cool-down is
    // checked before the offer, and outlasts the hold's grace, so the offer is never named late.)
    const res = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), { cookie: a.cookie });
    expect(res.status).toBe(429);
    expect(res.body.error?.message).toBe(HOARDING_MESSAGES.coolDown(10));
    await expectInventoryInvariant();
  });

  it('an expired hold’s seats are offered by the sweeper, and added capacity too', async () => {
    t = await createTestAppOn(engine);
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: 2 }],
    });
    const holder = await signedInUser(t);
    await proceed(t, holder.cookie, ev, 2);
    const [a, b] = [await signedInUser(t), await signedInUser(t)];
    const first = await joined(a, ev, 2);
    t.clock.advance(1);
    const second = await joined(b, ev, 1);

    t.clock.advance(10 * MINUTE);
    await holdSweeperJob.run(t.deps);
    expect((await entry(first.entryId)).status).toBe('offered');
    expect((await entry(second.entryId)).status).toBe('waiting');
    await expectInventoryInvariant();

    // The organiser adds a seat in the editor: it goes to the next in line in the same transaction.
    await updateTicketType(
      t.deps.db,
      ev.eventId,
      (await eventRow(ev.eventId)).version,
      typeOf(ev),
      {
        name: 'Gold Circle',
        priceRupees: 500,
        totalTickets: 3,
        maxPerOrder: 10,
        personAllowedPerTicket: 1,
        description: '',
        benefits: [],
        isRefundable: true,
        onSale: true,
        saleOpensAt: null,
        saleClosesAt: null,
      },
      { deps: t.deps, now: t.clock.now() },
    );
    expect((await entry(second.entryId)).status).toBe('offered');
    expect(await countOf(typeOf(ev))).toMatchObject({ total: 3, available: 0, held: 3 });
    await expectInventoryInvariant();
  });

  it('an unused offer lapses and passes to the next person; paying an offer books it', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds, a, b, first, second } = await twoInLine(2);
    await cancelBooking(bookingIds[0]!);
    expect((await entry(first.entryId)).status).toBe('offered');

    const offerMinutes = 30;
    t.clock.advance(offerMinutes * MINUTE + HOLD_GRACE_MS + 1);
    expect(
      await sweepExpiredHolds(t.deps.db, t.clock.now(), 500, (tx, holdId, reason, now) =>
        releaseAndPassOnSteps(tx, t.deps, holdId, reason, now),
      ),
    ).toBe(1);
    expect((await entry(first.entryId)).status).toBe('lapsed');
    expect((await entry(second.entryId)).status).toBe('offered');
    await expectInventoryInvariant();

    // The offer page and Pay: the hold's amounts, the simulator's payment, a booking.
    const page = await callProcedure(
      t,
      'query',
      'waitlist.offer',
      { entryId: second.entryId },
      { cookie: b.cookie },
    );
    expect(page.data).toMatchObject({ live: true, quantity: 2, subtotalPaise: 100_000 });
    const notYours = await onEntry(a, 'payOffer', second.entryId);
    expect(notYours.status).toBe(404);
    const lapsed = await onEntry(a, 'payOffer', first.entryId);
    expect(lapsed.status).toBe(409);
    expect(lapsed.body.error?.message).toBe(WAITLIST_MESSAGES.offerOver);

    const pay = await onEntry(b, 'payOffer', second.entryId);
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    const session = pay.data as CheckoutSession;
    expect(session.amountPaise).toBe((await holdOf(second.entryId))!.totalPaise);
    // Pressing Pay again reopens the same order.
    const again = await onEntry(b, 'payOffer', second.entryId);
    expect((again.data as CheckoutSession).orderId).toBe(session.orderId);
    const bookingId = await payFor(b, session);
    expect((await entry(second.entryId)).status).toBe('booked');
    const { bookings } = tables();
    const [booking] = await t.deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(booking).toMatchObject({ userId: b.userId, ticketCount: 2, status: 'confirmed' });
    expect(await countOf(typeOf(ev))).toMatchObject({ available: 0, held: 0, sold: 2 });
    await expectInventoryInvariant();
    const mine = await callProcedure(t, 'query', 'waitlist.mine', undefined, { cookie: b.cookie });
    expect(mine.data).toEqual([]);
  });

  it('leaving with an offer releases it to the next in line; leaving while waiting just ends the entry', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds, a, b, first, second } = await twoInLine(2);
    const c = await signedInUser(t);
    t.clock.advance(1);
    const third = await joined(c, ev, 1);

    const waitingLeave = await onEntry(c, 'leave', third.entryId);
    expect(waitingLeave.status).toBe(200);
    expect((await entry(third.entryId)).status).toBe('left');

    await cancelBooking(bookingIds[0]!);
    expect((await entry(first.entryId)).status).toBe('offered');
    const mine = await callProcedure(t, 'query', 'waitlist.mine', undefined, { cookie: a.cookie });
    expect(mine.data).toMatchObject([{ status: 'offered', place: null }]);

    const stranger = await onEntry(b, 'leave', first.entryId);
    expect(stranger.status).toBe(404);
    const left = await onEntry(a, 'leave', first.entryId);
    expect(left.status).toBe(200);
    expect((await entry(first.entryId)).status).toBe('left');
    expect((await holdOf(first.entryId))?.status).toBe('released');
    expect((await entry(second.entryId)).status).toBe('offered');
    await expectInventoryInvariant();
  });

  it('a cancelled slot ends its waiting list', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds, first, second } = await twoInLine(1);
    await cancelBooking(bookingIds[0]!);
    const { cancelSlotsInSteps } = await import('../../src-server/services/event-editor/cancel-slots.ts');
    await runnerFor(t.deps.db).write((tx) => cancelSlotsInSteps(tx as WriteTx, [ev.slotId], t.clock.now()));
    expect((await entry(first.entryId)).status).toBe('lapsed');
    expect((await entry(second.entryId)).status).toBe('lapsed');
    expect((await holdOf(first.entryId))?.status).toBe('released');
    await expectInventoryInvariant();
  });
});

/**
 * Issue 35, item 1: with the waiting room on, an account that never queued was refused at Proceed but
 * joined the waiting list, was offered a released hold's seats and paid, while an admitted visitor saw
 * "Sold Out". The list now needs what Proceed needs.
 */
describe('with the event’s waiting room on', () => {
  /** Switches the room on for `ev`, opening a minute from now and admitting one visitor a second. */
  async function roomOn(ev: TicketedEvent): Promise<Date> {
    const opensAt = new Date(t.clock.now().getTime() + MINUTE);
    const { waitingRooms } = tables();
    await t.deps.db.insert(waitingRooms).values({
      eventId: ev.eventId,
      enabled: true,
      opensAt: opensAt.toISOString(),
      admitPerMinute: 60,
      updatedAt: t.clock.now().toISOString(),
    });
    return opensAt;
  }

  /** The buyers queue before opening and are all admitted; answers each one's admission pass. */
  async function queueAndAdmit(ev: TicketedEvent, opensAt: Date, buyers: Buyer[]): Promise<string[]> {
    const tokens: string[] = [];
    for (const buyer of buyers) {
      const res = await callProcedure(
        t,
        'mutation',
        'waitingRoom.join',
        { eventId: ev.eventId },
        { cookie: buyer.cookie },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      tokens.push((res.data as { token: string }).token);
    }
    t.clock.set(opensAt);
    await admitDueVisitors(t.deps);
    t.clock.advance(buyers.length * 1_000 + 1);
    await admitDueVisitors(t.deps);
    const passes: string[] = [];
    for (const token of tokens) {
      const res = await t.request(`/api/waiting-room/${ev.eventId}`, {
        headers: { [QUEUE_TOKEN_HEADER]: token },
      });
      const pass = ((await res.json()) as WaitingRoomStatus).visitor?.pass;
      expect(pass).toBeTruthy();
      passes.push(pass!);
    }
    return passes;
  }

  it('an account that never queued cannot join the list; the seats a hold releases go to an admitted visitor', async () => {
    t = await createTestAppOn(engine);
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: 2 }],
    });
    const opensAt = await roomOn(ev);
    const [holder, fan, intruder] = [await signedInUser(t), await signedInUser(t), await signedInUser(t)];
    const [holderPass] = await queueAndAdmit(ev, opensAt, [holder, fan]);
    const held = await proceed(t, holder.cookie, ev, 2, { admissionPass: holderPass });
    expect((await countOf(typeOf(ev))).available).toBe(0);

    // The intruder is refused at Proceed, and now at the list too, with the same message.
    const proceeded = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 2), {
      cookie: intruder.cookie,
    });
    expect(proceeded.status).toBe(403);
    const listed = await join(intruder, ev, 2);
    expect(listed.status).toBe(403);
    expect(listed.body.error?.message).toBe(WAITING_ROOM_MESSAGES.passRequired);
    expect((await joined(fan, ev, 2)).place).toBe(1);

    // The holder gives the seats back: the admitted fan is offered them.
    const released = await callProcedure(
      t,
      'mutation',
      'payments.release',
      { holdId: held.holdId, reason: 'cancelled' },
      { cookie: holder.cookie },
    );
    expect(released.data).toEqual({ released: true });
    const { waitlistEntries } = tables();
    const [fanEntry] = await t.deps.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.userId, fan.userId));
    expect(fanEntry!.status).toBe('offered');
    expect(
      await t.deps.db.select().from(waitlistEntries).where(eq(waitlistEntries.userId, intruder.userId)),
    ).toEqual([]);
    await expectInventoryInvariant();
  });

  it('an entry made while the room was off is passed over for an admitted one, and keeps its place', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds } = await soldOutEvent(2, 2);
    const [early, fan] = [await signedInUser(t), await signedInUser(t)];
    const earlyEntry = await joined(early, ev, 2); // the room is not on yet
    const opensAt = await roomOn(ev);
    await queueAndAdmit(ev, opensAt, [fan]);
    const fanEntry = await joined(fan, ev, 2);
    expect(fanEntry.place).toBe(2);

    await cancelBooking(bookingIds[0]!);
    expect((await entry(earlyEntry.entryId)).status).toBe('waiting');
    expect((await entry(fanEntry.entryId)).status).toBe('offered');
    await expectInventoryInvariant();
  });

  it('an offer made while the room was off cannot be paid once it is on, until its holder is admitted or the room is off', async () => {
    t = await createTestAppOn(engine);
    const { ev, bookingIds } = await soldOutEvent(2, 2);
    const early = await signedInUser(t);
    const offered = await joined(early, ev, 2);
    await cancelBooking(bookingIds[0]!);
    expect((await entry(offered.entryId)).status).toBe('offered');

    await roomOn(ev);
    const beforeOpening = await onEntry(early, 'payOffer', offered.entryId);
    expect(beforeOpening.status).toBe(409);
    expect(beforeOpening.body.error?.message).toBe(WAITING_ROOM_MESSAGES.notOpenYet);
    t.clock.advance(2 * MINUTE);
    const refused = await onEntry(early, 'payOffer', offered.entryId);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toBe(WAITING_ROOM_MESSAGES.passRequired);
    const { simulatorOrders, waitingRooms } = tables();
    expect(await t.deps.db.select().from(simulatorOrders)).toHaveLength(1); // the first buyer's only

    // Switching the room off lets the list through at once.
    await t.deps.db.update(waitingRooms).set({ enabled: false }).where(eq(waitingRooms.eventId, ev.eventId));
    const paid = await onEntry(early, 'payOffer', offered.entryId);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  });
});

describe('the organiser', () => {
  it('sees the list length per ticket type on the sales dashboard; other organisers get not found', async () => {
    t = await createTestAppOn(engine);
    const w = await consoleWorld(t);
    const { ticketTypes } = tables();
    await t.deps.db
      .update(ticketTypes)
      .set({ availableTickets: 0 })
      .where(eq(ticketTypes.id, typeOf(w.event)));
    for (const person of [w.people.buyer, w.people['gate staff']]) {
      await joined(person as Buyer, w.event, 1);
      t.clock.advance(1);
    }
    const dashboard = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: w.event.eventId },
      { cookie: w.people.owner.cookie },
    );
    expect(dashboard.status).toBe(200);
    const types = (dashboard.data as { ticketTypes: { id: string; waitlistWaiting: number }[] }).ticketTypes;
    expect(types.find((x) => x.id === typeOf(w.event))).toMatchObject({
      waitlistWaiting: 2,
      waitlistOffered: 0,
    });
    const other = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: w.event.eventId },
      { cookie: w.people['organiser of another event'].cookie },
    );
    expect(other.status).toBe(404);
  });
});

describe('the inventory stays whole', () => {
  it('under concurrent returns and interleaved Proceeds: available + held + sold = total, no seat lost', async () => {
    // Six holders of a 12-seat slot on one in-process address: more than one address's share of the
    // slot, so the per-address caps are off here (a one-address crowd, ADR 0023).
    t = await createTestAppOn(engine, { HOLD_SEATS_PER_ADDRESS: '0' });
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: 12 }],
    });
    const holders = await Promise.all(Array.from({ length: 6 }, () => signedInUser(t)));
    const sessions = await Promise.all(holders.map((h) => proceed(t, h.cookie, ev, 2)));
    const waiting = await Promise.all(Array.from({ length: 8 }, () => signedInUser(t)));
    const entries = [];
    for (const [i, w] of waiting.entries()) {
      t.clock.advance(1);
      entries.push(await joined(w, ev, (i % 3) + 1));
    }
    // Two holds dismissed at the same moment, a third expiring, and Proceeds racing them.
    const racers = await Promise.all(Array.from({ length: 4 }, () => signedInUser(t)));
    const release = (i: number) =>
      callProcedure(
        t,
        'mutation',
        'payments.release',
        { holdId: sessions[i]!.holdId, reason: 'cancelled' },
        {
          cookie: holders[i]!.cookie,
        },
      );
    const racing = racers.map((r) =>
      callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), { cookie: r.cookie }),
    );
    const results = await Promise.all([release(0), release(1), ...racing, release(2)]);
    expect(results.slice(0, 2).map((r) => r.status)).toEqual([200, 200]);
    // Every returned seat went to the waiting list, in the same transaction: no racer got one.
    expect(results.slice(2, 6).every((r) => r.status === 409)).toBe(true);
    await expectInventoryInvariant();

    // Offers expire and pass on, in a loop, with the job running in between.
    for (let round = 0; round < 4; round += 1) {
      t.clock.advance(31 * MINUTE + HOLD_GRACE_MS);
      await holdSweeperJob.run(t.deps);
      await tendWaitlists(t.deps, t.clock.now());
      await expectInventoryInvariant();
    }
    const c = await countOf(typeOf(ev));
    expect(c.available + c.held + c.sold).toBe(12);
    // Seats held by an offer are never more than the seats the entries asked for.
    const { outbox, waitlistEntries } = tables();
    const live = await t.deps.db.select().from(waitlistEntries);
    const offeredSeats = live.filter((e) => e.status === 'offered').reduce((s, e) => s + e.quantity, 0);
    expect(offeredSeats).toBeLessThanOrEqual(c.held);
    // Nobody was offered twice.
    const offerMails = (await t.deps.db.select().from(outbox)).filter((m) =>
      m.idempotencyKey.startsWith('waitlist-offer:'),
    );
    expect(new Set(offerMails.map((m) => m.idempotencyKey)).size).toBe(offerMails.length);
    expect(entries.length).toBe(8);
  });
});

describe('a restart mid-offer', () => {
  let second: TestApp | undefined;
  afterEach(async () => {
    await second?.close();
    second = undefined;
  });

  it('the offer is a hold in the database: the next process expires it and hands it over', async () => {
    t = await createTestAppOn(engine);
    const { bookingIds, first, second: next } = await twoInLine(2);
    await cancelBooking(bookingIds[0]!);
    expect((await entry(first.entryId)).status).toBe('offered');

    const at = t.clock.now().getTime();
    if (engine === 'sqlite') {
      t.deps.sqlite.close();
      second = await createTestAppOn(engine, { DATA_DIR: t.dataDir, JOB_INTERVAL_MS: 50 });
      // `t.close` removes the folder the second app also uses: the second's close removes it.
      t = { ...t, close: () => {} };
    } else {
      // The next server on the same database; the first keeps no part of the offer in memory (its
      // database is dropped by its own close, after the second's pool has ended: hooks run inner first).
      second = await createTestAppOn(engine, { DATABASE_URL: t.deps.env.DATABASE_URL, JOB_INTERVAL_MS: 50 });
    }
    const restarted = second;
    restarted.clock.set(new Date(at + 31 * MINUTE + HOLD_GRACE_MS));
    const { waitlistEntries } = tablesOf(restarted.deps.db);
    const statusOf = async (entryId: string) =>
      (
        await restarted.deps.db
          .select({ status: waitlistEntries.status })
          .from(waitlistEntries)
          .where(eq(waitlistEntries.id, entryId))
      )[0]?.status;
    const jobs = startBackgroundJobs(restarted.deps, [holdSweeperJob, waitlistJob]);
    try {
      await expect.poll(() => statusOf(next.entryId), { timeout: 5_000 }).toBe('offered');
    } finally {
      jobs.stop();
    }
    expect(await statusOf(first.entryId)).toBe('lapsed');
    await expectInventoryInvariantOn(restarted.deps.db);
  });
});
