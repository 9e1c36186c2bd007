import { randomUUID } from 'node:crypto';
import type { BookedTicketType } from '../../shared/ticket-type.ts';
import type { Db } from '../../src-server/db/client.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { BookedTicketLine } from '../../src-server/db/schema/bookings.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { fixtureShow } from './fixture-dates.ts';
import { type EventDocument, insertEvent, insertEventOn } from './insert-event.ts';
import type { TestApp } from './test-app.ts';

let counter = 0;

export interface CreatedBooking {
  bookingId: string;
  eventId: string;
  row: typeof bookings.$inferSelect;
}

/**
 * A confirmed booking as the payments service would write it, inserted directly (with its event) so
 * tests of My Bookings, tickets and check-in do not depend on the purchase flow. The default is two
 * Gold Circle tickets for 2 people each for the fixture show 14 days after `now` (7:00-11:00 PM India
 * time; 5 Dec 2026 on the test clock).
 */
export function createBooking(
  t: Pick<TestApp, 'deps' | 'clock'>,
  options: {
    userId: string;
    userName?: string;
    quantity?: number;
    personAllowedPerTicket?: number;
    event?: Partial<EventDocument>;
  } & Partial<typeof bookings.$inferInsert>,
): CreatedBooking {
  return insertBookingWithEvent(t.deps.db, t.clock.now(), options);
}

/** `createBooking` on either engine (ADR 0045), for a file run on both (`testEngine()`). */
export async function createBookingOn(
  t: Pick<TestApp, 'deps' | 'clock'>,
  options: Parameters<typeof createBooking>[1],
): Promise<CreatedBooking> {
  const now = t.clock.now();
  const { event, values } = bookingFixture(now, options);
  await insertEventOn(t.deps.db, event, now.toISOString());
  const { bookings: table } = tablesOf(t.deps.db);
  const [row] = await t.deps.db.insert(table).values(values).returning();
  return { bookingId: row!.id, eventId: event.id, row: row! };
}

/** The same, for a database opened by hand (the e2e server's). */
export function insertBookingWithEvent(
  db: Db,
  now: Date,
  options: Parameters<typeof createBooking>[1],
): CreatedBooking {
  const { event, values } = bookingFixture(now, options);
  insertEvent(db, event, now.toISOString());
  const row = db.insert(bookings).values(values).returning().get();
  return { bookingId: row.id, eventId: event.id, row };
}

function bookingFixture(
  now: Date,
  options: Parameters<typeof createBooking>[1],
): { event: EventDocument; values: typeof bookings.$inferInsert } {
  counter += 1;
  const suffix = `${counter}-${randomUUID().slice(0, 8)}`;
  const {
    userId,
    userName,
    quantity = 2,
    personAllowedPerTicket = 2,
    event: eventOverrides,
    ...bookingOverrides
  } = options;
  const { day, start: slotStart, end: slotEnd } = fixtureShow(now);
  const ticketType: BookedTicketType = {
    id: `tt-${suffix}`,
    name: 'Gold Circle',
    pricePaise: 99_999,
    personAllowedPerTicket,
    description: 'Closest to the stage',
    isRefundable: true,
    totalTickets: 25,
    availableTickets: 25 - quantity,
    isLive: true,
  };
  const event: EventDocument = {
    id: `ev-${suffix}`,
    name: `Arijit Singh Live ${counter}`,
    description: 'An evening of songs.',
    category: 'concerts',
    city: 'Mumbai',
    imagesUrls: ['/images/demo/arijit-1.jpg'],
    posterUrl: '/images/demo/arijit-poster.jpg',
    startTime: slotStart,
    endTime: slotEnd,
    eventLocationText: 'NSCI Dome, Worli, Mumbai',
    googleMapsEmbedLink: null,
    ageRestrictions: null,
    artistLineup: [],
    termsAndConditions: [],
    platformFeeRate: null,
    tickets: [
      {
        id: `date-${suffix}`,
        dateOfEvent: day,
        isLive: true,
        slots: [
          {
            id: `slot-${suffix}`,
            startTime: slotStart,
            endTime: slotEnd,
            tickets: [{ ...ticketType, benefits: [] }],
          },
        ],
      },
    ],
    ...eventOverrides,
  };
  const line: BookedTicketLine = {
    id: ticketType.id,
    name: ticketType.name,
    pricePaise: ticketType.pricePaise,
    quantity,
    personAllowedPerTicket,
    totalPersons: quantity * personAllowedPerTicket,
  };
  // Spec §9 fees: 5 % of the subtotal, IGST 18 % of the fee.
  const subtotal = ticketType.pricePaise * quantity;
  const fee = Math.round(subtotal * 0.05);
  const igst = Math.round(fee * 0.18);
  const values: typeof bookings.$inferInsert = {
    id: `bk_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
    paymentId: `pay_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
    orderId: `order_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
    eventId: event.id,
    slotId: `slot-${suffix}`,
    ticketDate: day,
    ticketSlot: slotStart,
    ticketSlotEnd: slotEnd,
    ticketType,
    ticketTypes: [line],
    ticketCount: quantity,
    userId,
    userName: userName ?? 'Test Buyer',
    userPhone: '9876543210',
    userEmail: 'buyer@example.com',
    userState: 'Maharashtra',
    userCity: 'Mumbai',
    eventName: event.name,
    eventLocation: event.eventLocationText,
    subtotalAmountPaise: subtotal,
    feeAmountPaise: fee,
    igstAmountPaise: igst,
    totalAmountPaise: subtotal + fee + igst,
    status: 'confirmed',
    isCheckIn: false,
    totalUserAllowed: line.totalPersons,
    numberOfUserCheckedIn: 0,
    createdAt: now.toISOString(),
    ...bookingOverrides,
  };
  return { event, values };
}
