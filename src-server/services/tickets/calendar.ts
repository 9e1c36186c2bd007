import { createEvent } from 'ics';
import type { bookings } from '../../db/schema/bookings.ts';

/** The booking fields a calendar entry needs; a full bookings row fits. */
export type CalendarBooking = Pick<
  typeof bookings.$inferSelect,
  'id' | 'eventName' | 'eventLocation' | 'ticketSlot' | 'ticketSlotEnd' | 'ticketCount'
> & { ticketType: { name: string } };

/** The address of a booking's ticket page, for e-mails and calendar entries. */
export function ticketPageUrl(origin: string, bookingId: string): string {
  return new URL(`/ticket/${encodeURIComponent(bookingId)}`, origin).href;
}

/**
 * An iCalendar (.ics) entry for the booked slot, in UTC so every calendar app shows the right local
 * time. With an origin, the entry links to the ticket page. Also attached to the confirmation mail.
 */
export function bookingIcs(booking: CalendarBooking, origin?: string): string {
  const start = Date.parse(booking.ticketSlot);
  const end = Date.parse(booking.ticketSlotEnd);
  const url = origin ? ticketPageUrl(origin, booking.id) : undefined;
  const { error, value } = createEvent({
    uid: `booking-${booking.id}@jalsa`,
    productId: 'jalsa/tickets',
    title: booking.eventName || 'Event',
    location: booking.eventLocation || undefined,
    description: [
      `Booking ID: ${booking.id}`,
      `${booking.ticketType.name || 'Ticket'} x ${booking.ticketCount}`,
      'Show the QR code on your ticket at the entrance with a government ID.',
      ...(url ? [`Ticket: ${url}`] : []),
    ].join('\n'),
    url,
    start,
    startInputType: 'utc',
    startOutputType: 'utc',
    // A slot without a sensible end still gets a valid entry: two hours, a common show length.
    ...(Number.isFinite(end) && end > start
      ? { end, endInputType: 'utc' as const, endOutputType: 'utc' as const }
      : { duration: { hours: 2 } }),
    status: 'CONFIRMED',
    busyStatus: 'BUSY',
  });
  if (error || !value) throw error ?? new Error('Could not build the calendar entry');
  return value;
}
