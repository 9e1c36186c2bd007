import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { confirm, payWithSimulator, startInput } from './checkout-flow.ts';
import { account, buy, type Person } from './engine-fixtures.ts';
import { DETAILS, type TicketedEvent } from './inventory.ts';
import type { TestApp } from './test-app.ts';
import { callProcedure } from './trpc-http.ts';

/**
 * The ways one ticket of an event is sold, as the GST tests try them when a sale may be refused (a stale
 * rate, a venue state not set, issue 36) or priced by an earlier quote: a buyer's Proceed, the
 * organiser's door sale, and a waiting-list offer paid after the organiser returns the last seat.
 */

/** A new buyer's Proceed for one ticket, and the active holds it left (none when refused). */
export async function tryProceed(t: TestApp, ev: TicketedEvent) {
  const buyer = await account(t);
  const res = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
    cookie: buyer.cookie,
  });
  const { holds } = tablesOf(t.deps.db);
  const held = await t.deps.db
    .select()
    .from(holds)
    .where(and(eq(holds.userId, buyer.userId), eq(holds.status, 'active')));
  return { buyer, res, held };
}

/** What the editor tells the organiser about the event's GST (`ticketSaleGstProblem`). */
export async function editableGstOf(t: TestApp, ev: TicketedEvent, organiser: Person) {
  const res = await callProcedure(t, 'query', 'organiser.editableEvent', { eventId: ev.eventId }, organiser);
  expect(res.status).toBe(200);
  return res.data as { ticketSaleGstProblem: unknown };
}

/** One ticket sold for cash at the door by `organiser` (it is invoiced like any other sale). */
export function cashDoorSale(t: TestApp, ev: TicketedEvent, organiser: Person) {
  return callProcedure(
    t,
    'mutation',
    'boxOffice.recordDoorSale',
    {
      eventId: ev.eventId,
      slotId: ev.slotId,
      lines: [{ ticketTypeId: ev.ticketTypeIds[0], quantity: 1 }],
      name: 'Ravi Kulkarni',
      email: 'ravi.walkin@example.com',
      phone: '98200 12345',
      method: 'cash',
    },
    organiser,
  );
}

/**
 * The event's first type cut to one seat, bought by someone (`first`), and a fan on its waiting list
 * for one: the seat comes back to the fan when the organiser cancels `first` (`returnTheSeat`).
 */
export async function fanWaitingForTheLastSeat(t: TestApp, ev: TicketedEvent) {
  const { ticketTypes } = tablesOf(t.deps.db);
  await t.deps.db
    .update(ticketTypes)
    .set({ totalTickets: 1, availableTickets: 1 })
    .where(eq(ticketTypes.id, ev.ticketTypeIds[0]!));
  const first = await buy(t, ev, 1, { ticketDetails: DETAILS });
  const fan = await account(t);
  const joined = await callProcedure(
    t,
    'mutation',
    'waitlist.join',
    { ticketTypeId: ev.ticketTypeIds[0], quantity: 1, details: { ...DETAILS, email: fan.email } },
    fan,
  );
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  const { entryId } = joined.data as { entryId: string };
  return { first, fan, entryId };
}

/** The organiser cancels `bookingId`: its seat is offered to the waiting list, held and priced now. */
export async function returnTheSeat(t: TestApp, ev: TicketedEvent, organiser: Person, bookingId: string) {
  const cancelled = await callProcedure(
    t,
    'mutation',
    'eventBookings.cancel',
    { eventId: ev.eventId, bookingId },
    organiser,
  );
  expect(cancelled.status).toBe(200);
}

/** Pay on the fan's offer (the offer page's button). */
export function payOffer(t: TestApp, fan: Person, entryId: string) {
  return callProcedure(t, 'mutation', 'waitlist.payOffer', { entryId }, fan);
}

/** The offer's payment made in the simulator and confirmed: the fan's booking id. */
export async function offerBooked(t: TestApp, fan: Person, paid: { data: unknown }): Promise<string> {
  const booked = await confirm(
    t,
    fan.cookie,
    await payWithSimulator(t, (paid.data as { orderId: string }).orderId),
  );
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  expect(booked.data).toMatchObject({ outcome: 'booked' });
  return (booked.data as { bookingId: string }).bookingId;
}
