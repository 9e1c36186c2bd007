import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createSimulatorGateway } from '../../src-server/integrations/simulator/gateway.ts';
import type { PaymentGateway } from '../../src-server/services/payments/gateway.ts';
import { GatewayError } from '../../src-server/services/payments/gateway.ts';
import { proceed, startInput, tableRows } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import {
  countOfOn,
  createTicketedEventOn,
  DETAILS,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

describe('Proceed: hold and payment order', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await expectInventoryInvariantOn(t.deps.db);
    await t.close();
  });

  it('opens an order for the rounded grand total in paise, INR, with the §7 receipt and notes', async () => {
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Student Pass', pricePaise: 19_999, totalTickets: 100 }],
    });
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 3);
    // 3 × 199.99 = 599.97; fee 5 % = 29.9985 → 30.00; IGST 18 % = 5.40; total 635.37
    expect(session).toMatchObject({
      gateway: 'simulator',
      amountPaise: 63_537,
      currency: 'INR',
      subtotalPaise: 59_997,
      feePaise: 3_000,
      igstPaise: 540,
      description: `${ev.eventName} - Ticket Booking`,
      prefill: { name: DETAILS.name, email: DETAILS.email, contact: '9876543210' },
    });
    expect(JSON.parse(session.notes.tickets!)).toEqual([
      { id: ev.ticketTypeIds[0], name: 'Student Pass', quantity: 3 },
    ]);
    const [order] = await tableRows(t, 'paymentOrders');
    if (!order) throw new Error('no payment order');
    expect(order).toMatchObject({
      id: session.orderId,
      amountPaise: 63_537,
      currency: 'INR',
      status: 'created',
    });
    expect(order.receipt).toBe(`ticket_${t.clock.now().getTime()}_${ev.eventId}`.slice(0, 40));
    expect(order.receipt.length).toBeLessThanOrEqual(40);
    expect(order.notes).toEqual({
      event_id: ev.eventId,
      event_name: ev.eventName,
      slot_id: ev.slotId,
      total_tickets: '3',
      user_email: DETAILS.email,
      user_name: DETAILS.name,
    });
    // The gateway was asked for the same amount.
    expect((await tableRows(t, 'simulatorOrders'))[0]).toMatchObject({
      id: session.orderId,
      amountPaise: 63_537,
    });
  });

  it("uses the event's platformFeeRate", async () => {
    const ev = await createTicketedEventOn(t.deps.db, {
      platformFeeRate: 10,
      types: [{ name: 'Gold', pricePaise: 100_000, totalTickets: 10 }],
    });
    const session = await proceed(t, (await signedInUser(t)).cookie, ev, 1);
    expect(session.amountPaise).toBe(100_000 + 10_000 + 1_800);
  });

  it('ignores whatever total the client sends', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 2, {
      totalPrice: 1,
      totalAmount: 1,
      amount: 100,
      grandTotal: 1,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 2, price: 1, pricePaise: 1 }],
    });
    // 2 × 999.99 = 1999.98; fee 100.00 (99.999 rounded); IGST 18.00
    expect(session.amountPaise).toBe(199_998 + 10_000 + 1_800);
    expect((await tableRows(t, 'paymentOrders'))[0]?.amountPaise).toBe(211_798);
  });

  it('checks the §5 details on the server with the spec messages', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const res = await callProcedure(
      t,
      'mutation',
      'payments.start',
      { ...startInput(ev, 1), ticketDetails: { name: '  ', email: 'nope', phone: '12345', state: '' } },
      { cookie: buyer.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors).toMatchObject({ ticketDetails: 'Name is required' });
    expect((await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).available).toBe(50);
  });

  it('refuses a slot or ticket type from another event', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const other = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const wrongSlot = await callProcedure(
      t,
      'mutation',
      'payments.start',
      { ...startInput(ev, 1), selectedSlot: other.slotId },
      { cookie: buyer.cookie },
    );
    expect(wrongSlot.body.error?.message).toBe('Selected slot not found in event');
    const wrongDate = await callProcedure(
      t,
      'mutation',
      'payments.start',
      { ...startInput(ev, 1), selectedDate: other.dateId },
      { cookie: buyer.cookie },
    );
    expect(wrongDate.body.error?.message).toBe('Selected date not found in event');
    const wrongType = await callProcedure(
      t,
      'mutation',
      'payments.start',
      { ...startInput(ev, 1), selectedTickets: [{ ticketTypeId: other.ticketTypeIds[0], quantity: 1 }] },
      { cookie: buyer.cookie },
    );
    expect(wrongType.status).toBe(404);
    expect(wrongType.body.error?.message).toBe('No ticket types available for this slot.');
    expect((await countOfOn(t.deps.db, other.ticketTypeIds[0]!)).available).toBe(50);
  });

  /** The simulator, running `whileOpening` as each order is being opened (a throw stands for a failure). */
  function gatewayWhileOpening(whileOpening: () => void | Promise<void>): PaymentGateway {
    const real = createSimulatorGateway(t.deps);
    return {
      ...real,
      createOrder: async (order) => {
        await whileOpening();
        return real.createOrder(order);
      },
    };
  }

  /** A new buyer proceeds with two of the event's first type while the order opens as `whileOpening` says. */
  async function proceedWhileOpening(ev: TicketedEvent, whileOpening: () => void | Promise<void>) {
    t.deps.paymentGateway = gatewayWhileOpening(whileOpening);
    const { cookie } = await signedInUser(t);
    return callProcedure(t, 'mutation', 'payments.start', startInput(ev, 2), { cookie });
  }

  /** 'Failed to create order. Please try again.', and not a seat, hold or payment order left behind. */
  async function expectOrderFailedHoldingNothing(
    res: { body: { error?: { message: string } } },
    ev: TicketedEvent,
  ) {
    expect(res.body.error?.message).toBe('Failed to create order. Please try again.');
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 50, held: 0 });
    expect(await tableRows(t, 'holds')).toEqual([]);
    expect(await tableRows(t, 'paymentOrders')).toEqual([]);
  }

  it("holds no seat when the gateway cannot open an order, and says 'Failed to create order. Please try again.'", async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const res = await proceedWhileOpening(ev, () => {
      throw new GatewayError('Razorpay could not be reached', 'network');
    });
    await expectOrderFailedHoldingNothing(res, ev);
  });

  it('opens no gateway order when the seats are plainly gone', async () => {
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Lounge Pass', pricePaise: 49_999, totalTickets: 2 }],
    });
    await proceed(t, (await signedInUser(t)).cookie, ev, 2);
    const late = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
      cookie: (await signedInUser(t)).cookie,
    });
    expect(late.status).toBe(409);
    expect(late.body.error?.message).toBe('Lounge Pass: Sold Out');
    expect(await tableRows(t, 'simulatorOrders')).toHaveLength(1);
  });

  it('holds nothing when the seats go while the order is being opened, and says Sold Out', async () => {
    const ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Lounge Pass', pricePaise: 49_999, totalTickets: 2 }],
    });
    const rival = await signedInUser(t);
    let rivalDone = false;
    // While this buyer's order is being opened, someone else takes the last seats.
    t.deps.paymentGateway = gatewayWhileOpening(async () => {
      if (rivalDone) return;
      rivalDone = true;
      await proceed(t, rival.cookie, ev, 2);
    });
    const res = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
      cookie: (await signedInUser(t)).cookie,
    });
    expect(res.status).toBe(409);
    expect(res.body.error?.message).toBe('Lounge Pass: Sold Out');
    expect(await countOfOn(t.deps.db, ev.ticketTypeIds[0]!)).toMatchObject({ available: 0, held: 2 });
    // Only the rival's order was recorded against a hold; the other is simply never paid.
    expect(await tableRows(t, 'paymentOrders')).toHaveLength(1);
  });

  it('refuses when a price changes while the order is being opened, holding nothing', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const res = await proceedWhileOpening(ev, async () => {
      const { ticketTypes } = tablesOf(t.deps.db);
      await t.deps.db
        .update(ticketTypes)
        .set({ pricePaise: sql`${ticketTypes.pricePaise} + 100` })
        .where(eq(ticketTypes.id, ev.ticketTypeIds[0]!));
    });
    await expectOrderFailedHoldingNothing(res, ev);
  });

  it('hold ids and the simulator’s order ids sort in the order they were made', async () => {
    const ev = await createTicketedEventOn(t.deps.db);
    const first = await proceed(t, (await signedInUser(t)).cookie, ev, 1);
    // Hold ids take the app's clock; the simulator, like Razorpay, its own.
    t.clock.advance(1);
    // The simulator's own clock must move on: a timer may fire within the same millisecond.
    const made = Date.now();
    while (Date.now() <= made) await new Promise((resolve) => setTimeout(resolve, 1));
    const second = await proceed(t, (await signedInUser(t)).cookie, ev, 1);
    expect(first.holdId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.orderId).toMatch(/^order_[0-9A-Za-z]{14}$/);
    expect(first.holdId < second.holdId).toBe(true);
    expect(first.orderId < second.orderId).toBe(true);
  });
});
