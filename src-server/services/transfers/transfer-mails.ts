import { formatInIndia } from '../../../shared/dates.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

const when = (slotIso: string) => formatInIndia(slotIso, 'EEE, d MMM yyyy, h:mm a');

/**
 * To the recipient, an address nobody has proved yet: like the verification mail (accounts/emails.ts) it
 * holds no text the sender chose (their profile name, the name they typed for the recipient), only the
 * sender's verified address, the organiser's event and the link.
 */
export function transferOfferMail(o: {
  transferId: string;
  to: string;
  fromEmail: string;
  eventName: string;
  slotStart: string;
  url: string;
}): OutgoingMail {
  return {
    to: o.to,
    subject: `A ticket for ${o.eventName} was sent to you on Jalsa`,
    ...renderMail({
      heading: `A ticket for ${o.eventName}`,
      greeting: 'Hi there,',
      paragraphs: [
        `The Jalsa account ${o.fromEmail} is giving you their booking for ${o.eventName} on ${when(o.slotStart)} (India time).`,
        'To accept, sign in (or sign up) on Jalsa with this email address. The ticket then moves to your account with a new QR code; the one the sender had stops working.',
      ],
      action: { label: 'Accept the ticket', url: o.url },
      footnote: "If you weren't expecting this, you can ignore this email.",
    }),
    idempotencyKey: `transfer-offer:${o.transferId}`,
  };
}

/** To the sender: the recipient accepted, their QR no longer works. */
export function transferAcceptedMail(o: {
  transferId: string;
  to: string;
  fromName: string;
  toName: string;
  eventName: string;
  bookingId: string;
}): OutgoingMail {
  return {
    to: o.to,
    subject: `${o.toName} accepted your ticket for ${o.eventName}`,
    ...renderMail({
      heading: 'Your ticket was transferred',
      greeting: `Hi ${o.fromName},`,
      paragraphs: [
        `${o.toName} accepted booking ${o.bookingId} for ${o.eventName}. It is now in their account with a new QR code; the QR code you had no longer works at the gate.`,
        'Your GST invoice for the payment stays with you in My Bookings.',
      ],
    }),
    idempotencyKey: `transfer-accepted:${o.transferId}`,
  };
}
