import { formatPaiseExact } from '../../../shared/money.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

/**
 * Sent in the transaction that records a part refund (issue 40): what is refunded, which tickets are
 * cancelled and why, in the organiser's words (or "as you asked" for the buyer's own cancellation).
 */
export function partRefundedMail(facts: {
  refundPartId: string;
  bookingId: string;
  eventName: string;
  userName: string;
  userEmail: string;
  amountPaise: number;
  reason: string;
  byBuyer: boolean;
  /** "1 × Floor"; empty when no ticket was cancelled. */
  ticketsCancelled: string;
  supportEmail: string;
}): OutgoingMail {
  const amount = formatPaiseExact(facts.amountPaise);
  const what = facts.ticketsCancelled
    ? facts.byBuyer
      ? `As you asked, we have cancelled ${facts.ticketsCancelled} of your booking ${facts.bookingId} (${facts.eventName}); the rest of the booking stays valid.`
      : `The organiser has cancelled ${facts.ticketsCancelled} of your booking ${facts.bookingId} (${facts.eventName}); the rest of the booking stays valid.`
    : `The organiser is refunding part of your booking ${facts.bookingId} (${facts.eventName}); your tickets stay valid.`;
  const { html, text } = renderMail({
    heading: facts.byBuyer ? 'Some of your tickets are cancelled' : 'Part of your booking is being refunded',
    greeting: `Hi ${facts.userName || 'there'},`,
    paragraphs: [
      what,
      facts.byBuyer
        ? `Refund under the event’s refund policy: ${amount}.`
        : `Refund: ${amount}. Reason given by the organiser: ${facts.reason}`,
      'It is on its way to your original payment method; banks usually show it within 5-7 working days. A credit note for it is with your booking.',
    ],
    footnote: `Need help? Write to ${facts.supportEmail}`,
  });
  return {
    to: facts.userEmail,
    subject: `${facts.byBuyer ? 'Tickets cancelled' : 'Part refund'} - ${facts.eventName}`,
    html,
    text,
    idempotencyKey: `booking-part-refund:${facts.refundPartId}`,
  };
}
