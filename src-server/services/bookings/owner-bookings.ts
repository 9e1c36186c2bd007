import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row as rowOf, rows as rowsOf, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import type { BookingStatus } from '../../db/schema/bookings.ts';
import { notFound } from '../../errors.ts';
import { addOnLabel, addOnsOfBookingsSteps, type BookedAddOn } from '../add-ons/booking-add-ons.ts';
import { type OwnAttendeeTicket, ownAttendeeTicketsSteps } from '../attendee-tickets/own-attendee-tickets.ts';
import { readTicketToken, signTicketToken } from '../tickets/ticket-token.ts';

/** What the owner of a booking sees on My Bookings and the ticket page. Never another person's data. */
export interface OwnBooking {
  id: string;
  eventId: string;
  eventName: string;
  eventLocation: string;
  /** The event's poster, else its first image; null when it has neither (the client shows a default). */
  posterUrl: string | null;
  imageUrl: string | null;
  ticketDate: string;
  ticketSlot: string;
  ticketSlotEnd: string;
  /** The start the holder bought, when the organiser has since moved the show ("Moved from …"); else null. */
  rescheduledFrom: string | null;
  ticketTypeName: string;
  ticketCount: number;
  ticketTypes: { id: string; name: string; quantity: number; pricePaise: number }[];
  userName: string;
  totalAmountPaise: number;
  status: BookingStatus;
  /** Who cancelled it: 'buyer' (themselves), 'organiser', 'slot_cancelled' or 'event_cancelled'; null if not. */
  cancelReason: string | null;
  isCheckIn: boolean;
  numberOfUserCheckedIn: number;
  totalUserAllowed: number;
  createdAt: string;
  /** The signed text the ticket's QR code carries (services/tickets/ticket-token.ts). */
  qrToken: string;
  /** Add-ons bought with the tickets (ADR 0041): what to collect at the gate. */
  addOns: { id: string; label: string; totalPaise: number; givenAt: string | null }[];
  /**
   * Each attendee's own ticket (ADR 0046), for types set to one ticket per attendee; empty otherwise.
   * When every ticket has one, `bookingQrAdmits` is false and the booking's QR is not shown.
   */
  attendeeTickets: OwnAttendeeTicket[];
  bookingQrAdmits: boolean;
}

/** The signed-in person's bookings, newest first, read by their own id (on either engine, ADR 0045). */
export function listOwnBookings(db: DbOrTx, appSecret: string, userId: string): Promise<OwnBooking[]> {
  return runStatements(db, function* (d) {
    const rows = yield* rowsOf(ownBookingQueries(d).list, { userId });
    const addOns = yield* addOnsOfBookingsSteps(
      d,
      rows.map((r) => r.id),
    );
    const attendees = yield* ownAttendeeTicketsSteps(d, appSecret, rows);
    return rows.map((row) => toOwnBooking(row, appSecret, addOns, attendees.get(row.id) ?? []));
  });
}

/**
 * One booking for its owner. Someone else's booking, an unknown id and a signed-out caller all get the
 * same not-found answer, so a booking id reveals nothing to anyone but its owner. With `ticketToken`
 * (the mailed link of a box-office buyer without an account, ADR 0042), the ticket's current signed
 * token opens it too: whoever holds it holds the ticket already (it is what the QR carries).
 */
export function getOwnBooking(
  db: DbOrTx,
  appSecret: string,
  userId: string | null,
  bookingId: string,
  ticketToken?: string,
): Promise<OwnBooking> {
  return runStatements(db, function* (d) {
    const row = userId ? yield* rowOf(ownBookingQueries(d).one, { bookingId, userId }) : undefined;
    const found =
      row ?? (ticketToken ? yield* bookingOfTicketToken(d, appSecret, bookingId, ticketToken) : undefined);
    if (!found) throw bookingNotFound();
    return toOwnBooking(
      found,
      appSecret,
      yield* addOnsOfBookingsSteps(d, [found.id]),
      (yield* ownAttendeeTicketsSteps(d, appSecret, [found])).get(found.id) ?? [],
    );
  });
}

/** The booking a token names, if it names this one at its current transfer (an older QR opens nothing). */
function* bookingOfTicketToken(
  db: DbOrTx,
  appSecret: string,
  bookingId: string,
  token: string,
): Steps<Row | undefined> {
  const named = readTicketToken(appSecret, token);
  // One attendee's QR (ADR 0046) is that person's ticket, not the booking with everyone else's.
  if (named?.bookingId !== bookingId || named.attendee) return undefined;
  const row = yield* rowOf(ownBookingQueries(db).byId, { bookingId });
  return row?.transferCount === named.generation ? row : undefined;
}

export const BOOKING_NOT_FOUND_MESSAGE = 'Booking not found';
const bookingNotFound = () => notFound(BOOKING_NOT_FOUND_MESSAGE);

function selectOwnBookings(db: DbOrTx) {
  const { bookings, events } = tablesOf(db);
  return db
    .select({
      id: bookings.id,
      eventId: bookings.eventId,
      bookedEventName: bookings.eventName,
      bookedEventLocation: bookings.eventLocation,
      eventName: events.name,
      eventLocationText: events.eventLocationText,
      posterUrl: events.posterUrl,
      imagesUrls: events.imagesUrls,
      ticketDate: bookings.ticketDate,
      ticketSlot: bookings.ticketSlot,
      ticketSlotEnd: bookings.ticketSlotEnd,
      rescheduledFrom: bookings.rescheduledFrom,
      ticketType: bookings.ticketType,
      ticketTypes: bookings.ticketTypes,
      ticketCount: bookings.ticketCount,
      userName: bookings.userName,
      totalAmountPaise: bookings.totalAmountPaise,
      status: bookings.status,
      cancelReason: bookings.cancelReason,
      isCheckIn: bookings.isCheckIn,
      numberOfUserCheckedIn: bookings.numberOfUserCheckedIn,
      totalUserAllowed: bookings.totalUserAllowed,
      createdAt: bookings.createdAt,
      transferCount: bookings.transferCount,
    })
    .from(bookings)
    .leftJoin(events, eq(events.id, bookings.eventId))
    .$dynamic();
}

/**
 * Both reads built once per database (My Bookings and the ticket page are signed-in paths every buyer
 * takes; building a select cost more than running it, issue 21), on either engine: PostgreSQL's are
 * unnamed, planned per execution as a built query would be.
 */
const ownBookingQueries = oncePer((db: DbOrTx) => {
  const { bookings } = tablesOf(db);
  return {
    list: selectOwnBookings(db)
      .where(eq(bookings.userId, sql.placeholder('userId')))
      .orderBy(desc(bookings.createdAt), desc(bookings.id))
      .prepare(),
    one: selectOwnBookings(db)
      .where(
        and(eq(bookings.id, sql.placeholder('bookingId')), eq(bookings.userId, sql.placeholder('userId'))),
      )
      .prepare(),
    byId: selectOwnBookings(db)
      .where(eq(bookings.id, sql.placeholder('bookingId')))
      .prepare(),
  };
});

type Row = Awaited<ReturnType<ReturnType<typeof selectOwnBookings>['all']>>[number];

function toOwnBooking(
  row: Row,
  appSecret: string,
  addOns: Map<string, BookedAddOn[]>,
  attendeeTickets: OwnAttendeeTicket[],
): OwnBooking {
  const ownQrPersons = row.ticketTypes.reduce(
    (n, l) => n + (attendeeTickets.some((t) => t.ticketTypeId === l.id) ? 0 : l.totalPersons),
    0,
  );
  return {
    addOns: (addOns.get(row.id) ?? []).map((a) => ({
      id: a.id,
      label: addOnLabel(a),
      totalPaise: a.totalPaise,
      givenAt: a.givenAt,
    })),
    id: row.id,
    eventId: row.eventId,
    // The names as bought, else the event's current ones; the client adds the spec's last fallbacks.
    eventName: row.bookedEventName || row.eventName || '',
    eventLocation: row.bookedEventLocation || row.eventLocationText || '',
    posterUrl: row.posterUrl || null,
    imageUrl: row.imagesUrls?.[0] || null,
    ticketDate: row.ticketDate,
    ticketSlot: row.ticketSlot,
    ticketSlotEnd: row.ticketSlotEnd,
    rescheduledFrom: row.rescheduledFrom,
    ticketTypeName: row.ticketType.name,
    ticketCount: row.ticketCount,
    ticketTypes: row.ticketTypes.map((line) => ({
      id: line.id,
      name: line.name,
      quantity: line.quantity,
      pricePaise: line.pricePaise,
    })),
    userName: row.userName,
    totalAmountPaise: row.totalAmountPaise,
    status: row.status,
    cancelReason: row.cancelReason,
    isCheckIn: row.isCheckIn,
    numberOfUserCheckedIn: row.numberOfUserCheckedIn,
    totalUserAllowed: row.totalUserAllowed,
    createdAt: row.createdAt,
    qrToken: signTicketToken(appSecret, row.id, row.transferCount),
    attendeeTickets,
    bookingQrAdmits: attendeeTickets.length === 0 || ownQrPersons > 0,
  };
}
