/**
 * The gate's manual look-up (a buyer whose phone is dead) lists each attendee's own ticket where the
 * booking has them (issue 40, ADR 0046): name, which ticket, admitted or not, under the gate ticket id the
 * gate admits, so the volunteer admits the person in front of them, not "the booking". A booking's own
 * count is then what its own QR still admits; a booking without attendee tickets is listed as before.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { LookedUpTicket } from '../../src-server/services/gate/look-up-tickets.ts';
import { setGateStaff } from '../../src-server/services/tickets/gate-staff.ts';
import { signAttendeeTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { account, ownedEvent, signedInUser } from '../helpers/engine-fixtures.ts';
import { DETAILS } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function ok(res: { status: number; body: unknown; data?: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data;
}

/** An event of one type (2 persons a ticket) asking attendee names, with a gate volunteer. */
async function setUp() {
  t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
  const owner = await account(t, 'organiser');
  const ev = await ownedEvent(t, owner.userId);
  const type = ev.ticketTypeIds[0]!;
  const { events, ticketTypes } = tablesOf(t.deps.db);
  await t.deps.db.update(ticketTypes).set({ personAllowedPerTicket: 2 }).where(eq(ticketTypes.id, type));
  const staff = await signedInUser(t, { email: 'gate@example.com', name: 'Ravi' });
  expect(await setGateStaff(t.deps.db, 'gate@example.com', ev.eventId, true, t.clock.now())).toBe('done');
  await ok(
    await callProcedure(
      t,
      'mutation',
      'console.setAttendeeNames',
      { eventId: ev.eventId, ticketTypeId: type, mode: 'optional' },
      { cookie: owner.cookie },
    ),
  );

  /** The console's ticket-type editor with "One ticket per attendee" ticked (or not). */
  const setPerAttendee = async (on: boolean) => {
    const [row] = await t.deps.db.select().from(ticketTypes).where(eq(ticketTypes.id, type));
    const [event] = await t.deps.db.select().from(events).where(eq(events.id, ev.eventId));
    const version = event!.version;
    await ok(
      await callProcedure(
        t,
        'mutation',
        'organiser.updateTicketType',
        {
          eventId: ev.eventId,
          version,
          ticketTypeId: type,
          ticket: {
            name: row!.name,
            priceRupees: row!.pricePaise / 100,
            totalTickets: row!.totalTickets,
            maxPerOrder: row!.maxPerOrder,
            personAllowedPerTicket: row!.personAllowedPerTicket,
            description: row!.description,
            benefits: row!.benefits,
            isRefundable: row!.isRefundable,
            onSale: true,
            perAttendeeTickets: on,
            saleOpensAt: null,
            saleClosesAt: null,
          },
        },
        { cookie: owner.cookie },
      ),
    );
  };

  /** Three tickets held by Asha Verma through the real checkout, the first two named. */
  const buyThree = async () => {
    const buyer = await signedInUser(t);
    const session = (await ok(
      await callProcedure(
        t,
        'mutation',
        'payments.start',
        {
          eventId: ev.eventId,
          selectedDate: ev.dateId,
          selectedSlot: ev.slotId,
          selectedTickets: [{ ticketTypeId: type, quantity: 3 }],
          ticketDetails: DETAILS,
          answers: {
            names: [
              { ticketTypeId: type, position: 1, name: 'Kavya Menon' },
              { ticketTypeId: type, position: 2, name: 'Rohan Das' },
            ],
            answers: [],
          },
        },
        { cookie: buyer.cookie },
      ),
    )) as { orderId: string };
    const confirmed = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
    return (confirmed.data as { bookingId: string }).bookingId;
  };

  const gate = (procedure: 'gate.lookUp' | 'gate.scan', input: object) =>
    callProcedure(
      t,
      procedure === 'gate.lookUp' ? 'query' : 'mutation',
      procedure,
      { eventId: ev.eventId, slotId: ev.slotId, ...input },
      { cookie: staff.cookie },
    );
  const lookUp = async (query: string) =>
    (await ok(await gate('gate.lookUp', { query }))) as LookedUpTicket[];
  const scan = async (code: { token?: string; bookingId?: string }, persons?: number) =>
    ok(
      await gate('gate.scan', {
        gate: 'North gate',
        deviceId: 'device-1',
        scanId: randomUUID(),
        persons,
        ...code,
      }),
    );
  return { ev, type, setPerAttendee, buyThree, lookUp, scan };
}

describe('the gate’s look-up and attendees’ own tickets', () => {
  it('lists each attendee (name, ticket, admitted or not) to admit by their ticket; a per-booking booking as before', async () => {
    const w = await setUp();
    const before = await w.buyThree();
    await w.setPerAttendee(true);
    const bookingId = await w.buyThree();

    const rows = await w.lookUp('Asha');
    const old = rows.find((r) => r.bookingId === before)!;
    expect(old).toMatchObject({ holderName: 'Asha Verma', allowed: 6, admitted: 0, attendeeTickets: [] });
    const booking = rows.find((r) => r.bookingId === bookingId)!;
    const ticketId = (position: number) => `${bookingId}+${w.type}+${position}`;
    // Every person is on an attendee's ticket: the booking's own QR admits nobody.
    expect(booking).toMatchObject({ holderName: 'Asha Verma', allowed: 0, admitted: 0 });
    expect(booking.attendeeTickets).toEqual([
      {
        ticketId: ticketId(1),
        name: 'Kavya Menon',
        typeName: 'Gold Circle',
        label: 'Ticket 1 of 3 · Kavya Menon',
        allowed: 2,
        admitted: 0,
        cancelled: false,
      },
      {
        ticketId: ticketId(2),
        name: 'Rohan Das',
        typeName: 'Gold Circle',
        label: 'Ticket 2 of 3 · Rohan Das',
        allowed: 2,
        admitted: 0,
        cancelled: false,
      },
      // No name given: the holder's, and the buyer's page calls it "Ticket 3 of 3".
      {
        ticketId: ticketId(3),
        name: 'Asha Verma',
        typeName: 'Gold Circle',
        label: 'Ticket 3 of 3',
        allowed: 2,
        admitted: 0,
        cancelled: false,
      },
    ]);

    // Rohan came in by his QR; Kavya, whose phone is dead, is picked from the look-up by her ticket.
    const rohan = signAttendeeTicketToken(t.deps.appSecret, bookingId, 0, {
      ticketTypeId: w.type,
      position: 2,
    });
    expect(await w.scan({ token: rohan }, 2)).toMatchObject({ outcome: 'admit', persons: 2 });
    expect(await w.scan({ bookingId: ticketId(1) }, 2)).toMatchObject({
      outcome: 'admit',
      persons: 2,
      ticket: { holderName: 'Kavya Menon', admitted: 2, allowed: 2 },
    });
    const after = (await w.lookUp(bookingId)).find((r) => r.bookingId === bookingId)!;
    expect(after.attendeeTickets.map((a) => [a.name, a.admitted, a.allowed])).toEqual([
      ['Kavya Menon', 2, 2],
      ['Rohan Das', 2, 2],
      ['Asha Verma', 0, 2],
    ]);
    expect(after).toMatchObject({ allowed: 0, admitted: 0 });
    // The person at the gate says her own name: found by it (she is named on both of Asha's bookings).
    expect(new Set((await w.lookUp('kavya')).map((r) => r.bookingId))).toEqual(new Set([before, bookingId]));
    expect(await w.lookUp('Nobody Here')).toEqual([]);
  });
});
