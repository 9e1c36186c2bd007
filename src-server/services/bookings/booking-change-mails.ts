import { formatLongDate, formatTime } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

export type CancelReason = 'organiser' | 'slot_cancelled' | 'event_cancelled' | 'buyer';

/** Sent in the transaction that cancels a booking: cancelled, and the refund (full or the policy's) is coming. */
export function bookingCancelledMail(facts: {
  bookingId: string;
  userName: string;
  userEmail: string;
  eventName: string;
  slotStart: string;
  amountPaise: number;
  reason: CancelReason;
  supportEmail: string;
  /**
   * After a transfer the holder and the payer differ (ADR 0025): the payer's mail says what is refunded,
   * the holder's says the refund goes to whoever paid.
   */
  recipient?: 'payer' | 'holder';
}): OutgoingMail {
  const why =
    facts.reason === 'event_cancelled'
      ? 'The organiser has cancelled the event, so your booking is cancelled.'
      : facts.reason === 'slot_cancelled'
        ? 'The organiser has cancelled this show, so your booking is cancelled.'
        : facts.reason === 'buyer'
          ? 'As you asked, your booking is cancelled.'
          : 'The organiser has cancelled your booking.';
  const refund =
    facts.recipient === 'holder'
      ? 'This ticket was given to you; any refund goes back to the payment method of the person who paid for it.'
      : facts.amountPaise === 0
        ? 'No refund is due under the event’s refund policy.'
        : `A ${facts.reason === 'buyer' ? 'refund' : 'full refund'} of ${formatPaiseExact(facts.amountPaise)} is on its way to your original payment method. We will write again when it has been issued.`;
  const { html, text } = renderMail({
    heading: 'Your booking has been cancelled',
    greeting: `Hi ${facts.userName || 'there'},`,
    paragraphs: [
      `${why} Booking ID: ${facts.bookingId}, ${facts.eventName}, ${when(facts.slotStart)}.`,
      refund,
      'Your ticket is no longer valid for entry.',
    ],
    footnote: `Need help? Write to ${facts.supportEmail}`,
  });
  return {
    to: facts.userEmail,
    subject: `Booking cancelled - ${facts.eventName}`,
    html,
    text,
    idempotencyKey: `booking-cancelled:${facts.bookingId}${facts.recipient === 'holder' ? ':holder' : ''}`,
  };
}

/**
 * Sent to every ticket holder of a slot the organiser moved: old and new time, India time. When the day
 * changed (`fullRefund`), it also says until when they may cancel for a full refund (reschedule-slot.ts).
 */
export function slotMovedMail(facts: {
  bookingId: string;
  userName: string;
  userEmail: string;
  eventName: string;
  oldStart: string;
  oldEnd: string;
  newStart: string;
  newEnd: string;
  /** Moved to another day, not only to another time on its day. */
  dateMoved: boolean;
  fullRefund: { amountPaise: number; until: string } | null;
  ticketUrl: string;
  supportEmail: string;
}): OutgoingMail {
  const newDay = facts.dateMoved;
  const { html, text } = renderMail({
    heading: newDay ? 'Your show has moved to a new date' : 'The time of your show has changed',
    greeting: `Hi ${facts.userName || 'there'},`,
    paragraphs: [
      `The organiser of ${facts.eventName} has moved the show you booked (booking ID ${facts.bookingId}).`,
      `Was: ${span(facts.oldStart, facts.oldEnd)} (India time)`,
      `Now: ${span(facts.newStart, facts.newEnd)} (India time)`,
      `Your ticket stays valid for the new ${newDay ? 'date' : 'time'}; you do not need a new one.`,
      ...(facts.fullRefund
        ? [
            `If you cannot make the new date, you may cancel from My Bookings for a full refund of ${formatPaiseExact(facts.fullRefund.amountPaise)} until ${when(facts.fullRefund.until)} (India time), even if your tickets were not refundable.`,
          ]
        : []),
    ],
    action: { label: 'View your ticket', url: facts.ticketUrl },
    footnote: `Need help? Write to ${facts.supportEmail}`,
  });
  return {
    to: facts.userEmail,
    subject: newDay ? `New date for ${facts.eventName}` : `New time for ${facts.eventName}`,
    html,
    text,
    idempotencyKey: `slot-moved:${facts.bookingId}:${facts.newStart}:${facts.newEnd}`,
  };
}

const when = (start: string) => `${formatLongDate(start)}, ${formatTime(start)}`;
const span = (start: string, end: string) =>
  `${formatLongDate(start)}, ${formatTime(start)} - ${formatTime(end)}`;
