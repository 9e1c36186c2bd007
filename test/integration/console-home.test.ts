import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { createBookingOn } from '../helpers/bookings.ts';
import { account, ownedEvent } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

describe('console home: my events with their figures', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('lists status, next date, sold / capacity and gross from the bookings, soonest first', async () => {
    const owner = await account(t, 'organiser');
    const buyer = await account(t);
    // Two bookings of one event: 3 + 2 Gold Circle tickets at ₹999.99 (capacity 25).
    const first = await createBookingOn(t, {
      userId: buyer.userId,
      quantity: 3,
      event: { ownerId: owner.userId },
    });
    await createBookingOn(t, {
      userId: buyer.userId,
      quantity: 2,
      eventId: first.eventId,
      event: { id: `unused-${Math.random()}` },
    });
    const soldOut = await ownedEvent(t, owner.userId, 'Sold Out Show');
    const { ticketTypes } = tablesOf(t.deps.db);
    await t.deps.db
      .update(ticketTypes)
      .set({ availableTickets: 0 })
      .where(eq(ticketTypes.id, soldOut.ticketTypeIds[0]!));
    await ownedEvent(t, (await account(t, 'organiser')).userId, 'Somebody Else’s Show');

    const home = async () =>
      (await callProcedure(t, 'query', 'console.myEvents', undefined, { cookie: owner.cookie })).data as {
        name: string;
        status: string;
        nextStart: string | null;
        sold: number;
        capacity: number;
        ticketRevenuePaise: number;
        payablePaise: number;
      }[];

    const rows = await home();
    expect(rows.map((r) => r.name).sort()).toEqual([first.row.eventName, 'Sold Out Show'].sort());
    expect(rows.find((r) => r.name === first.row.eventName)).toMatchObject({
      myRole: 'owner',
      status: 'on_sale',
      nextStart: '2026-12-05T13:30:00.000Z',
      sold: 5,
      capacity: 25,
      // Written directly, the bookings' totals are the ticket prices plus fee and GST on it: the list
      // shows the ticket prices alone, nothing refunded.
      ticketRevenuePaise: 5 * 99_999,
      payablePaise: 5 * 99_999,
    });
    expect(rows.find((r) => r.name === 'Sold Out Show')).toMatchObject({
      status: 'sale_ended',
      sold: 0,
      capacity: 50,
    });

    t.clock.set(new Date('2026-12-06T00:00:00.000Z'));
    expect((await home()).map((r) => [r.status, r.nextStart])).toEqual([
      ['past', null],
      ['past', null],
    ]);
  });
});
