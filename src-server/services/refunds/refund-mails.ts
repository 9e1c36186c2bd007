import { formatPaiseExact } from '../../../shared/money.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

export { paymentRefundedMail } from '../payments/booking-mail.ts';

/** Sent when the gateway accepted a cancelled booking's refund (the refund job's success). */
export function bookingRefundedMail(facts: {
  bookingId: string;
  paymentId: string;
  userName: string;
  userEmail: string;
  eventName: string;
  amountPaise: number;
  supportEmail: string;
}): OutgoingMail {
  const amount = formatPaiseExact(facts.amountPaise);
  const { html, text } = renderMail({
    heading: 'Your refund has been issued',
    greeting: `Hi ${facts.userName || 'there'},`,
    paragraphs: [
      `We have refunded ${amount} for your cancelled booking ${facts.bookingId} (${facts.eventName}) to your original payment method.`,
      'Banks usually show it within 5-7 working days.',
      `Payment ID: ${facts.paymentId}`,
    ],
    footnote: `Need help? Write to ${facts.supportEmail}`,
  });
  return {
    to: facts.userEmail,
    subject: `Refund issued - ${facts.eventName}`,
    html,
    text,
    idempotencyKey: `booking-refunded:${facts.bookingId}`,
  };
}
