import { formatInIndia } from '../../../shared/dates.ts';
import { formatPaiseExact } from '../../../shared/money.ts';
import { renderMail } from '../mail/layout.ts';
import type { OutgoingMail } from '../mail/outbox.ts';

/** The page an offer's mail links to (shared/page-paths.ts lists it). */
export function offerPagePath(entryId: string): string {
  return `/waitlist/offers/${encodeURIComponent(entryId)}`;
}

/** Seats came back and are held for this person: pay by the deadline, or they pass to the next in line. */
export function waitlistOfferMail(o: {
  entryId: string;
  to: string;
  name: string;
  eventName: string;
  slotStart: string;
  ticketTypeName: string;
  quantity: number;
  totalPaise: number;
  payBy: string;
  url: string;
}): OutgoingMail {
  const tickets = `${o.quantity} × ${o.ticketTypeName}`;
  const payBy = formatInIndia(o.payBy, 'h:mm a, d MMM');
  return {
    to: o.to,
    subject: `Tickets for ${o.eventName} are held for you: pay by ${payBy}`,
    ...renderMail({
      heading: 'Your turn on the waiting list',
      greeting: `Hi ${o.name || 'there'},`,
      paragraphs: [
        `Seats came back for ${o.eventName} on ${formatInIndia(o.slotStart, 'EEE, d MMM yyyy, h:mm a')} (India time), and we are holding ${tickets} for you: ${formatPaiseExact(o.totalPaise)} in all.`,
        `Pay by ${payBy} (India time) to book them. After that they pass to the next person on the waiting list.`,
      ],
      action: { label: 'Pay for your tickets', url: o.url },
      footnote:
        'If you no longer want them, leave the waiting list from My Bookings so the next person gets them sooner.',
    }),
    idempotencyKey: `waitlist-offer:${o.entryId}`,
  };
}
