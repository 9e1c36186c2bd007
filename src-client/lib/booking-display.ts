import { formatBookingDate, formatTime } from '../../shared/dates.ts';
import type { RouterOutputs } from './trpc.ts';

export type OwnBooking = RouterOutputs['bookings']['mine'][number];

/** Shown when an event has neither a poster nor an image (spec §2 My Bookings 'default image'). */
export const DEFAULT_POSTER =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 400"><rect width="300" height="400" fill="#ffe4e6"/>' +
      '<path d="M95 160h110v30a20 20 0 0 0 0 40v30H95v-30a20 20 0 0 0 0-40z" fill="#f43f5e"/></svg>',
  );

/** The spec's fallbacks for what a booking card and the ticket page show. */
export function bookingDisplay(booking: OwnBooking) {
  const slot = booking.ticketSlot || booking.ticketDate;
  return {
    poster: booking.posterUrl || booking.imageUrl || DEFAULT_POSTER,
    name: booking.eventName || 'Event',
    location: booking.eventLocation || 'Location',
    date: formatBookingDate(slot),
    time: booking.ticketSlotEnd
      ? `${formatTime(slot)} - ${formatTime(booking.ticketSlotEnd)}`
      : formatTime(slot),
    ticket: `${booking.ticketTypeName || 'Ticket'} x ${booking.ticketCount || 1}`,
    holder: booking.userName || '-',
    /** The organiser moved the show: what the holder had booked, for a "Moved from …" note; else null. */
    movedFrom: booking.rescheduledFrom
      ? `${formatBookingDate(booking.rescheduledFrom)}, ${formatTime(booking.rescheduledFrom)}`
      : null,
  };
}

/** Owner-only downloads (src-server/http/ticket-files.ts). */
export const ticketPdfUrl = (bookingId: string) => `/api/tickets/${encodeURIComponent(bookingId)}.pdf`;
export const ticketIcsUrl = (bookingId: string) => `/api/tickets/${encodeURIComponent(bookingId)}.ics`;

/**
 * My Bookings' two lists (issue 17): 'Upcoming' (the show has not ended), soonest first, and 'Past',
 * latest first. A booking whose times are missing counts as upcoming, so it is never hidden away.
 */
export function splitByEventDate<T extends Pick<OwnBooking, 'ticketDate' | 'ticketSlot' | 'ticketSlotEnd'>>(
  bookings: T[],
  now: Date,
): { upcoming: T[]; past: T[] } {
  const start = (b: T) => Date.parse(b.ticketSlot || b.ticketDate) || 0;
  const end = (b: T) => Date.parse(b.ticketSlotEnd || b.ticketSlot || b.ticketDate);
  const upcoming: T[] = [];
  const past: T[] = [];
  for (const booking of bookings) {
    const ends = end(booking);
    (Number.isFinite(ends) && ends < now.getTime() ? past : upcoming).push(booking);
  }
  upcoming.sort((a, b) => start(a) - start(b));
  past.sort((a, b) => start(b) - start(a));
  return { upcoming, past };
}
