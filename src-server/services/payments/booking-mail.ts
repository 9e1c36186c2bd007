import { formatLongDate, formatTime } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import {
  admissionTaxOf,
  bookingFeeLabel,
  type FeeTaxSplit,
  TICKET_GST_LABEL,
} from '../../../shared/pricing.ts';
import { addOnLabel } from '../add-ons/booking-add-ons.ts';
import type { OutgoingMail } from '../mail/outbox.ts';
import { bookingIcs } from '../tickets/calendar.ts';

/** Store and social links shown in every booking mail (the footer's app badges and social icons). */
export const APP_LINKS = {
  googlePlay: 'https://play.google.com/store/apps/details?id=in.jalsa.app',
  appStore: 'https://apps.apple.com/in/app/jalsa/id0000000000',
} as const;
export const SOCIAL_LINKS = [
  { name: 'Instagram', url: 'https://www.instagram.com/jalsa' },
  { name: 'Facebook', url: 'https://www.facebook.com/jalsa' },
  { name: 'X', url: 'https://x.com/jalsa' },
  { name: 'YouTube', url: 'https://www.youtube.com/@jalsa' },
] as const;

export interface BookingMailFacts {
  bookingId: string;
  userName: string;
  userEmail: string;
  eventName: string;
  venue: string;
  slotStart: string;
  slotEnd: string;
  lines: { name: string; quantity: number; pricePaise: number }[];
  subtotalPaise: number;
  /** A discount code's reduction (issue 40): the lines are at list price, the subtotal after it. */
  discount?: { code: string; discountPaise: number } | null;
  /**
   * The add-ons bought with the tickets (issue 40, ADR 0041), each line's price with its own GST included:
   * the total holds them beyond the subtotal, fee and ticket GST.
   */
  addOns?: readonly { name: string; variantName: string; quantity: number; totalPaise: number }[];
  /** Convenience fee + its GST. */
  bookingFeePaise: number;
  /** The fee's GST: 0 when the platform is not registered (the fee is then not charged with tax). */
  feeGstPaise: number;
  /** How the fee invoice levied that GST (CGST + SGST/UTGST or IGST); null: no fee invoice. */
  feeTaxSplit: FeeTaxSplit | null;
  totalPaise: number;
  siteUrl: string;
  supportEmail: string;
  /** The ticket's signed token, put in the link for a buyer without an account (box office, ADR 0042). */
  ticketToken?: string;
}

/** Spec §7 'Send confirmation e-mail': subject with a ticket emoji, HTML and text with every listed fact. */
export function bookingConfirmedMail(facts: BookingMailFacts): OutgoingMail {
  const when = `${formatLongDate(facts.slotStart)} | ${formatTime(facts.slotStart)} - ${formatTime(facts.slotEnd)}`;
  const ticketUrl = `${facts.siteUrl}/ticket/${encodeURIComponent(facts.bookingId)}${facts.ticketToken ? `?t=${encodeURIComponent(facts.ticketToken)}` : ''}`;
  const bookingsUrl = `${facts.siteUrl}/my-bookings`;
  const name = facts.userName || 'there';

  const addOns = facts.addOns ?? [];
  const addOnsPaise = addOns.reduce((sum, a) => sum + a.totalPaise, 0);
  const ticketGstPaise = admissionTaxOf({
    totalPaise: facts.totalPaise,
    subtotalPaise: facts.subtotalPaise,
    addOnsPaise,
    // The booking fee is the fee with its GST.
    feePaise: facts.bookingFeePaise - facts.feeGstPaise,
    igstPaise: facts.feeGstPaise,
  });
  const feeLabel = bookingFeeLabel(facts.feeGstPaise, facts.feeTaxSplit);
  const lineText = facts.lines.map(
    (l) =>
      `${l.name}: ${l.quantity} x ${formatPaiseExact(l.pricePaise)} = ${formatPaiseExact(l.pricePaise * l.quantity)}`,
  );
  const text = [
    `Hi ${name},`,
    '',
    `Thank you for your booking! Your tickets for ${facts.eventName} are confirmed.`,
    '',
    `Booking ID: ${facts.bookingId}`,
    `Event: ${facts.eventName}`,
    `Date and time: ${when}`,
    `Venue: ${facts.venue}`,
    '',
    'Tickets:',
    ...lineText.map((l) => `  ${l}`),
    // An access code alone (ADR 0038) took nothing off: no discount line.
    ...(facts.discount?.discountPaise
      ? [`Discount (code ${facts.discount.code}): -${formatPaiseExact(facts.discount.discountPaise)}`]
      : []),
    `Subtotal: ${formatPaiseExact(facts.subtotalPaise)}`,
    ...(ticketGstPaise > 0 ? [`${TICKET_GST_LABEL}: ${formatPaiseExact(ticketGstPaise)}`] : []),
    // Collected at the entrance, so the buyer knows to ask for them; their prices include their own GST.
    ...(addOns.length > 0
      ? [
          'Add-ons (collect them at the entrance; amounts include their GST):',
          ...addOns.map((a) => `  ${addOnLabel(a)}: ${formatPaiseExact(a.totalPaise)}`),
        ]
      : []),
    `${feeLabel}: ${formatPaiseExact(facts.bookingFeePaise)}`,
    `Total paid: ${formatPaiseExact(facts.totalPaise)}`,
    '',
    `Your ticket: ${ticketUrl}`,
    `All your bookings: ${bookingsUrl}`,
    'Show the QR code on your ticket at the entry together with a government ID.',
    '',
    `Get the Jalsa app: Google Play ${APP_LINKS.googlePlay} | App Store ${APP_LINKS.appStore}`,
    `Need help? Write to ${facts.supportEmail}`,
    `Follow us: ${SOCIAL_LINKS.map((s) => `${s.name} ${s.url}`).join(' | ')}`,
  ].join('\n');

  const rows = facts.lines
    .map(
      (l) =>
        `<tr><td style="padding:6px 0">${esc(l.name)}</td><td style="padding:6px 8px;text-align:center">${l.quantity}</td>` +
        `<td style="padding:6px 8px;text-align:right">${esc(formatPaiseExact(l.pricePaise))}</td>` +
        `<td style="padding:6px 0;text-align:right">${esc(formatPaiseExact(l.pricePaise * l.quantity))}</td></tr>`,
    )
    .join('');
  const addOnRows = addOns.length
    ? `<tr><td colspan="4" style="padding:10px 0 2px;font-weight:bold">Add-ons (collect them at the entrance; amounts include their GST)</td></tr>${addOns
        .map(
          (a) =>
            `<tr><td colspan="3" style="padding:6px 0">${esc(addOnLabel(a))}</td><td style="text-align:right">${esc(formatPaiseExact(a.totalPaise))}</td></tr>`,
        )
        .join('')}`
    : '';
  const html = layout(
    `
    <h1 style="font-size:22px;margin:0 0 12px">Booking Confirmed 🎟️</h1>
    <p>Hi ${esc(name)},</p>
    <p>Thank you for your booking! Your tickets for <strong>${esc(facts.eventName)}</strong> are confirmed.</p>
    <table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0">
      <tr><td style="color:#6b7280;padding:4px 0">Booking ID</td><td style="font-weight:bold">${esc(facts.bookingId)}</td></tr>
      <tr><td style="color:#6b7280;padding:4px 0">Event</td><td>${esc(facts.eventName)}</td></tr>
      <tr><td style="color:#6b7280;padding:4px 0">Date and time</td><td>${esc(when)}</td></tr>
      <tr><td style="color:#6b7280;padding:4px 0">Venue</td><td>${esc(facts.venue)}</td></tr>
    </table>
    <table style="width:100%;border-collapse:collapse;border-top:1px solid #e5e7eb">
      <thead><tr style="color:#6b7280;font-size:13px"><th style="text-align:left;padding:6px 0">Ticket</th><th>Quantity</th><th style="text-align:right">Unit price</th><th style="text-align:right">Amount</th></tr></thead>
      <tbody>${rows}</tbody>
      <tfoot>
        ${facts.discount?.discountPaise ? `<tr><td colspan="3" style="padding:6px 0">Discount (code ${esc(facts.discount.code)})</td><td style="text-align:right">-${esc(formatPaiseExact(facts.discount.discountPaise))}</td></tr>` : ''}
        <tr><td colspan="3" style="padding:6px 0">Subtotal</td><td style="text-align:right">${esc(formatPaiseExact(facts.subtotalPaise))}</td></tr>
        ${ticketGstPaise > 0 ? `<tr><td colspan="3" style="padding:6px 0">${esc(TICKET_GST_LABEL)}</td><td style="text-align:right">${esc(formatPaiseExact(ticketGstPaise))}</td></tr>` : ''}
        ${addOnRows}
        <tr><td colspan="3" style="padding:6px 0">${esc(feeLabel)}</td><td style="text-align:right">${esc(formatPaiseExact(facts.bookingFeePaise))}</td></tr>
        <tr><td colspan="3" style="padding:6px 0;font-weight:bold">Total paid</td><td style="text-align:right;font-weight:bold">${esc(formatPaiseExact(facts.totalPaise))}</td></tr>
      </tfoot>
    </table>
    <p style="margin:20px 0"><a href="${esc(ticketUrl)}" style="background:#e11d48;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">View your ticket</a></p>
    <p>Show the QR code on your ticket at the entry together with a government ID. All your bookings are under <a href="${esc(bookingsUrl)}">My Bookings</a>.</p>
  `,
    facts.supportEmail,
  );

  return {
    to: facts.userEmail,
    subject: `🎟️ Booking Confirmed - ${facts.eventName}`,
    html,
    text,
    idempotencyKey: `booking-confirmed:${facts.bookingId}`,
    attachments: [
      {
        filename: `jalsa-${facts.bookingId}.ics`,
        contentType: 'text/calendar',
        content: Buffer.from(calendarOf(facts)).toString('base64'),
      },
    ],
  };
}

export interface RefundMailFacts {
  paymentId: string;
  userName: string;
  userEmail: string;
  eventName: string;
  amountPaise: number;
  supportEmail: string;
  /** The slot or event was cancelled before the payment arrived (not sold out). */
  cancelled?: boolean;
}

/** Tells the buyer that a payment which could not become a booking is being refunded in full. */
export function paymentRefundedMail(facts: RefundMailFacts): OutgoingMail {
  const name = facts.userName || 'there';
  const amount = formatPaiseExact(facts.amountPaise);
  const why = facts.cancelled
    ? 'arrived after the show was cancelled'
    : 'arrived after the tickets you chose were no longer available';
  const text = [
    `Hi ${name},`,
    '',
    `Your payment of ${amount} for ${facts.eventName} ${why}, so no booking was made.`,
    `We have refunded the full amount to your original payment method. Banks usually show it within 5-7 working days.`,
    '',
    `Payment ID: ${facts.paymentId}`,
    `Need help? Write to ${facts.supportEmail}`,
  ].join('\n');
  const html = layout(
    `
    <h1 style="font-size:22px;margin:0 0 12px">Your payment is being refunded</h1>
    <p>Hi ${esc(name)},</p>
    <p>Your payment of <strong>${esc(amount)}</strong> for <strong>${esc(facts.eventName)}</strong> ${esc(why)}, so no booking was made.</p>
    <p>We have refunded the full amount to your original payment method. Banks usually show it within 5-7 working days.</p>
    <p style="color:#6b7280">Payment ID: ${esc(facts.paymentId)}</p>
  `,
    facts.supportEmail,
  );
  return {
    to: facts.userEmail,
    subject: `Payment refunded - ${facts.eventName}`,
    html,
    text,
    idempotencyKey: `payment-refunded:${facts.paymentId}`,
  };
}

function layout(body: string, supportEmail: string): string {
  const social = SOCIAL_LINKS.map(
    (s) => `<a href="${esc(s.url)}" style="color:#6b7280;margin:0 6px">${esc(s.name)}</a>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Jalsa</title></head>
<body style="margin:0;background:#f9fafb;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1f2937">
<div style="max-width:600px;margin:0 auto;background:#fff;padding:24px">
<p style="font-size:20px;font-weight:800;color:#e11d48;margin:0 0 16px">Jalsa</p>
${body}
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">
<p style="font-size:13px">Get the Jalsa app: <a href="${esc(APP_LINKS.googlePlay)}">Google Play</a> · <a href="${esc(APP_LINKS.appStore)}">App Store</a></p>
<p style="font-size:13px">Need help? Write to <a href="mailto:${esc(supportEmail)}">${esc(supportEmail)}</a></p>
<p style="font-size:13px">${social}</p>
</div></body></html>`;
}

function esc(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The booking as an iCalendar entry, attached so one tap adds it to a calendar. */
function calendarOf(facts: BookingMailFacts): string {
  return bookingIcs(
    {
      id: facts.bookingId,
      eventName: facts.eventName,
      eventLocation: facts.venue,
      ticketSlot: facts.slotStart,
      ticketSlotEnd: facts.slotEnd,
      ticketCount: facts.lines.reduce((sum, l) => sum + l.quantity, 0),
      ticketType: { name: facts.lines[0]?.name ?? 'Ticket' },
    },
    facts.siteUrl,
  );
}
