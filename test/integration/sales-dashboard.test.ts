import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { account, ownedEvent, type Person, signedInUser, teamMember } from '../helpers/engine-fixtures.ts';
import { addLateShowOn, countOfOn, type TicketedEvent } from '../helpers/inventory.ts';
import { cancelWithFullRefundOn, seedOrdersOn } from '../helpers/sales.ts';
import { type SeededCopies, seededCopies } from '../helpers/seeded-copies.ts';
import { type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * The sales dashboard and the orders table against bookings made through the real checkout
 * (Proceed → simulator → confirm), with every figure computed by hand below.
 *
 * The event: slot 1 sells Gold ₹999.99 (50) and Silver ₹499.50 (30); slot 2 sells Late Show ₹300 (20).
 *   A (Asha)  slot 1, Gold × 2 + Silver × 1, 21 Nov 12:00 IST: subtotal 2,49,948; fee 12,497; GST 2,249
 *   B (Bina)  slot 1, Silver × 3,           22 Nov 12:00 IST: subtotal 1,49,850; fee 7,493 (half-up); GST 1,349
 *   C (Chetan) slot 2, Late Show × 4,       22 Nov 12:10 IST: subtotal 1,20,000; fee 6,000; GST 1,080
 *            then cancelled with a full refund of 1,27,080 (seats back on sale)
 *   D  an active hold on Gold × 3 (at the payment step now)
 *   E  a hold on Silver × 1 that has expired but is not yet swept: not "held"
 *   2 of A's 3 people have been let in.
 */
describe('sales dashboard', () => {
  let t: TestApp;
  let owner: Person;
  let ev: TicketedEvent;
  let lateSlotId: string;
  let lateTypeId: string;
  let ids: { a: string; b: string; c: string };

  // The sales below are made once, through the real checkout (the costly part on PostgreSQL); each test
  // gets its own copy of them.
  let sales: SeededCopies;
  beforeAll(async () => {
    sales = await seededCopies(testEngine(), async (t) => {
      const { bookings, ticketTypes } = tablesOf(t.deps.db);
      owner = await account(t, 'organiser');
      ev = await ownedEvent(t, owner.userId, 'Sur Sangam Night');
      // A second ticket type in slot 1, and a second slot with its own type.
      const [gold] = ev.ticketTypeIds;
      const silverId = `${ev.eventId}-type-1`;
      await t.deps.db.insert(ticketTypes).values({
        id: silverId,
        slotId: ev.slotId,
        name: 'Silver',
        pricePaise: 49_950,
        totalTickets: 30,
        availableTickets: 30,
        position: 1,
      });
      ev.ticketTypeIds.push(silverId);
      ({ slotId: lateSlotId, typeId: lateTypeId } = await addLateShowOn(t.deps.db, ev, 20));

      const buy = async (
        name: string,
        email: string,
        phone: string,
        selection: { slotId: string; items: [string, number][] },
      ) => {
        const buyer = await signedInUser(t);
        const session = await proceed(t, buyer.cookie, ev, 1, {
          selectedSlot: selection.slotId,
          selectedTickets: selection.items.map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity })),
          ticketDetails: { name, email, phone, state: 'Maharashtra' },
        });
        const paid = await payWithSimulator(t, session.orderId, true);
        expect((await confirm(t, buyer.cookie, paid)).status).toBe(200);
        const [booking] = await t.deps.db
          .select({ id: bookings.id })
          .from(bookings)
          .where(eq(bookings.paymentId, paid.razorpay_payment_id));
        return booking!.id;
      };
      // 21 Nov 2026 06:30 UTC = 12:00 IST.
      const a = await buy('Asha Verma', 'asha@example.com', '9876543210', {
        slotId: ev.slotId,
        items: [
          [gold!, 2],
          [silverId, 1],
        ],
      });
      t.clock.advance(24 * 3600_000);
      const b = await buy('Bina Rao', 'bina@example.com', '9123456780', {
        slotId: ev.slotId,
        items: [[silverId, 3]],
      });
      t.clock.advance(10 * 60_000);
      const c = await buy('Chetan Shah', 'chetan@example.com', '9988776655', {
        slotId: lateSlotId,
        items: [[lateTypeId, 4]],
      });
      ids = { a, b, c };
      await cancelWithFullRefundOn(t, c);
      await t.deps.db
        .update(bookings)
        .set({ numberOfUserCheckedIn: 2, isCheckIn: true })
        .where(eq(bookings.id, a));
      // E's hold expires unswept; then D holds three Gold seats.
      await proceed(t, (await signedInUser(t)).cookie, ev, 1, {
        selectedTickets: [{ ticketTypeId: silverId, quantity: 1 }],
      });
      t.clock.advance(15 * 60_000);
      await proceed(t, (await signedInUser(t)).cookie, ev, 3);
    });
  });
  afterAll(async () => {
    await sales.close();
  });
  beforeEach(async () => {
    t = await sales.app();
  });
  afterEach(async () => {
    await t.close();
  });

  const dashboard = async (cookie = owner.cookie) => {
    const res = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie },
    );
    expect(res.status, JSON.stringify(res.body.error)).toBe(200);
    return res.data as {
      money: Record<string, number>;
      ticketTypes: { id: string; name: string; capacity: number; sold: number; held: number }[];
      slots: { id: string; capacity: number; sold: number; held: number; orders: number }[];
      checkIns: Record<string, number>;
    };
  };

  it('adds up money: ticket revenue, platform fees, refunds and payable, cancelled bookings included', async () => {
    // Slot 1 only: the test helper still counts a cancelled booking as sold (the refunds work changes it).
    for (const id of ev.ticketTypeIds) {
      const c = await countOfOn(t.deps.db, id);
      expect(c.available, `available of ${id}`).toBeGreaterThanOrEqual(0);
      expect(c.available + c.held + c.sold, `available + held + sold of ${id}`).toBe(c.total);
    }
    const { money } = await dashboard();
    expect(money).toEqual({
      orders: 3,
      confirmedOrders: 2,
      cancelledOrders: 1,
      paidByBuyersPaise: 264_694 + 158_692 + 127_080,
      // The ticket prices paid (the organiser's), cancelled C included: its money came in, then went back.
      ticketRevenuePaise: 249_948 + 149_850 + 120_000,
      addOnRevenuePaise: 0,
      // The owner has no organiser profile, so no invoice charged GST.
      ticketGstPaise: 0,
      // Convenience fees and their GST: the platform's.
      platformFeesPaise: 12_497 + 2_249 + (7_493 + 1_349) + (6_000 + 1_080),
      // ...the same, fees and their GST apart.
      convenienceFeesPaise: 12_497 + 7_493 + 6_000,
      feeGstPaise: 2_249 + 1_349 + 1_080,
      refundsPaise: 127_080,
      refundsPendingPaise: 0,
      // C's full refund returns its tickets (₹1,200) from the organiser and its fee + GST (₹70.80)
      // from the platform.
      ticketRefundsPaise: 120_000,
      // No discount code used (payout-statement.test.ts counts one).
      discountsPaise: 0,
      // No comps and no sale at the door (issue 40, box-office.test.ts counts them).
      compOrders: 0,
      doorSales: 0,
      doorCashPaise: 0,
      doorUpiPaise: 0,
      collectedAtDoorPaise: 0,
      payablePaise: 249_948 + 149_850,
    });
  });

  it('counts sold, held and capacity per ticket type and per slot', async () => {
    const { ticketTypes: types, slots: perSlot } = await dashboard();
    expect(types.map(({ name, capacity, sold, held }) => ({ name, capacity, sold, held }))).toEqual([
      { name: 'Gold Circle', capacity: 50, sold: 2, held: 3 },
      { name: 'Silver', capacity: 30, sold: 4, held: 0 },
      { name: 'Late Show', capacity: 20, sold: 0, held: 0 },
    ]);
    expect(
      types.map((type) => (type as unknown as { soldFaceValuePaise: number }).soldFaceValuePaise),
    ).toEqual([199_998, 199_800, 0]);
    expect(perSlot).toEqual([
      expect.objectContaining({ id: ev.slotId, capacity: 80, sold: 6, held: 3, orders: 2 }),
      expect.objectContaining({ id: lateSlotId, capacity: 20, sold: 0, held: 0, orders: 0 }),
    ]);
  });

  it('counts check-ins of confirmed bookings', async () => {
    const { checkIns } = await dashboard();
    // A admits 3 people (3 tickets × 1), B admits 3; C is cancelled.
    expect(checkIns).toEqual({ peopleAdmitted: 2, peopleExpected: 6, bookingsCheckedIn: 1, bookings: 2 });
  });

  it('charts tickets and money per India-time day and hour, summing to the gross', async () => {
    const days = await callProcedure(
      t,
      'query',
      'console.salesOverTime',
      { eventId: ev.eventId, bucket: 'day' },
      { cookie: owner.cookie },
    );
    expect(days.data).toEqual([
      { start: '2026-11-20T18:30:00.000Z', orders: 1, tickets: 3, grossPaise: 264_694 },
      { start: '2026-11-21T18:30:00.000Z', orders: 2, tickets: 7, grossPaise: 158_692 + 127_080 },
    ]);
    const hours = await callProcedure(
      t,
      'query',
      'console.salesOverTime',
      { eventId: ev.eventId, bucket: 'hour' },
      { cookie: owner.cookie },
    );
    expect(hours.data).toEqual([
      { start: '2026-11-21T06:30:00.000Z', orders: 1, tickets: 3, grossPaise: 264_694 },
      { start: '2026-11-22T06:30:00.000Z', orders: 2, tickets: 7, grossPaise: 158_692 + 127_080 },
    ]);
  });

  it('shows co-organisers the figures and refuses gate staff', async () => {
    const co = await account(t);
    const gate = await account(t);
    await teamMember(t, ev.eventId, co.userId, 'co_organiser');
    await teamMember(t, ev.eventId, gate.userId, 'gate_staff');
    expect((await dashboard(co.cookie)).money.paidByBuyersPaise).toBe(550_466);
    const refused = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie: gate.cookie },
    );
    expect(refused.status).toBe(403);
  });

  it('the console home shows the same sold tickets and money as the dashboard', async () => {
    const home = await callProcedure(t, 'query', 'console.myEvents', undefined, { cookie: owner.cookie });
    const { money } = await dashboard();
    expect(home.data).toEqual([
      expect.objectContaining({
        id: ev.eventId,
        sold: 6,
        capacity: 100,
        ticketRevenuePaise: money.ticketRevenuePaise,
        payablePaise: money.payablePaise,
      }),
    ]);
  });

  describe('orders table', () => {
    type Page = {
      orders: { id: string; userName: string; status: string; refundedPaise: number; slotId: string }[];
      total: number;
      next: string | null;
    };
    const orders = async (input: Record<string, unknown>) => {
      const res = await callProcedure(
        t,
        'query',
        'console.orders',
        { eventId: ev.eventId, ...input },
        { cookie: owner.cookie },
      );
      return { status: res.status, page: res.data as Page, error: res.body.error };
    };

    it('lists newest first with the refund beside the cancelled order', async () => {
      const { page } = await orders({});
      expect(page.total).toBe(3);
      expect(page.next).toBeNull();
      expect(page.orders.map((o) => [o.id, o.status, o.refundedPaise])).toEqual([
        [ids.c, 'cancelled', 127_080],
        [ids.b, 'confirmed', 0],
        [ids.a, 'confirmed', 0],
      ]);
      const oldest = await orders({ sort: 'oldest' });
      expect(oldest.page.orders.map((o) => o.id)).toEqual([ids.a, ids.b, ids.c]);
    });

    it('searches by name, e-mail, mobile and booking id, and filters by slot and status', async () => {
      const found = async (input: Record<string, unknown>) =>
        (await orders(input)).page.orders.map((o) => o.id);
      expect(await found({ q: 'bina' })).toEqual([ids.b]);
      expect(await found({ q: 'CHETAN@EXAMPLE' })).toEqual([ids.c]);
      expect(await found({ q: '98765 43210' })).toEqual([ids.a]);
      expect(await found({ q: ids.a.slice(0, 8).toLowerCase() })).toEqual([ids.a]);
      // Letters mixed with a mobile's digits read as a booking id, not a mobile.
      expect(await found({ q: 'zz98765' })).toEqual([]);
      expect(await found({ q: '+91 98765-43210' })).toEqual([ids.a]);
      expect(await found({ q: '%' })).toEqual([]);
      expect(await found({ q: '_' })).toEqual([]);
      expect(await found({ slotId: lateSlotId })).toEqual([ids.c]);
      expect(await found({ status: 'confirmed' })).toEqual([ids.b, ids.a]);
      expect(await found({ status: 'cancelled', slotId: ev.slotId })).toEqual([]);
      const counted = await orders({ q: 'example.com', status: 'confirmed' });
      expect(counted.page.total).toBe(2);
    });

    it('pages with a cursor, and refuses unbounded sizes, long searches and forged cursors', async () => {
      await seedOrdersOn(t, ev, 60, '2026-11-23T00:00:00.000Z');
      const first = await orders({ limit: 25 });
      expect(first.page.total).toBe(63);
      const seen = [...first.page.orders.map((o) => o.id)];
      let next = first.page.next;
      while (next) {
        const more = await orders({ limit: 25, after: next });
        expect(more.page.total).toBe(63);
        seen.push(...more.page.orders.map((o) => o.id));
        next = more.page.next;
      }
      expect(seen).toHaveLength(63);
      expect(new Set(seen).size).toBe(63);
      expect(seen.slice(-3)).toEqual([ids.c, ids.b, ids.a]);

      expect((await orders({ limit: 1000 })).status).toBe(400);
      expect((await orders({ limit: 0 })).status).toBe(400);
      expect((await orders({ q: 'x'.repeat(101) })).error?.message).toBe('Search for at most 100 characters');
      expect((await orders({ after: "'; drop table bookings; --" })).status).toBe(400);
      expect((await orders({ status: 'refunded' })).status).toBe(400);
    });
  });
});
