import { indiaCalendarDay } from '../../../shared/dates.ts';
import type { EventDetailsFields, TicketTypeFields } from '../../../shared/event-editor-schemas.ts';
import { MAX_TICKETS_PER_TYPE } from '../../../shared/pricing.ts';
import { artistSlug, DEMO_EVENTS, type DemoEvent, type DemoTier } from './demo-catalog.ts';

/** Terms every demo event carries; some events add their own. */
const COMMON_TERMS = [
  'Carry a valid government photo ID along with your ticket QR code; entry may be refused without it.',
  'Tickets may be transferred only through My Bookings and may not be resold.',
  'Refunds and cancellations follow the organiser’s policy shown on the ticket type.',
  'The organiser may refuse entry to anyone under the influence of alcohol or drugs.',
  'Outside food, drinks, sharp objects and professional cameras are not allowed.',
];

/**
 * One demo event as an organiser would enter it in the console: what each event-editor service is
 * given, in order (seed.ts). Times are India wall-clock times, as the console's forms send them.
 */
export interface DemoEventPlan {
  /** Fixed, unlike a console event's: the demo pictures and tests name it. */
  id: string;
  details: EventDetailsFields;
  /** The venue's state where the city spans states (set in the editor's GST section); else null. */
  venueState: string | null;
  dates: DemoDatePlan[];
}

export interface DemoDatePlan {
  /** An India calendar day, 'yyyy-MM-dd'. */
  day: string;
  slots: DemoSlotPlan[];
}

export interface DemoSlotPlan {
  /** 'HH:MM' in India time; an end earlier than the start is on the next day. */
  startTime: string;
  endTime: string;
  ticketTypes: DemoTicketPlan[];
}

export interface DemoTicketPlan {
  /** The tier's key in demo-catalog.ts. */
  key: string;
  ticket: TicketTypeFields;
  /** Sold to the demo audience once the event is published (demo-sales.ts). */
  soldOut: boolean;
}

/** Demo catalogue, dated relative to `now` (India calendar days), so every event is upcoming. */
export function demoEvents(now: Date): DemoEventPlan[] {
  const today = indiaCalendarDay(now);
  return DEMO_EVENTS.map((event) => toPlan(event, today));
}

export const posterPath = (eventId: string) => `/images/events/${eventId}-poster.webp`;
export const widePath = (eventId: string) => `/images/events/${eventId}-wide.webp`;
export const artistPath = (name: string) => `/images/artists/${artistSlug(name)}.webp`;

function toPlan(event: DemoEvent, today: string): DemoEventPlan {
  const dayOffsets = [event.inDays, ...(event.moreDays ?? []).map((d) => event.inDays + d)];
  return {
    id: event.id,
    venueState: event.venueState ?? null,
    details: {
      name: event.name,
      category: event.category,
      city: event.city,
      eventLocationText: event.venue,
      googleMapsEmbedLink: `https://www.google.com/maps?q=${encodeURIComponent(event.venue)}&output=embed`,
      description: event.description,
      ageRestrictions: event.ageLimit,
      language: '',
      termsAndConditions: [...COMMON_TERMS, ...(event.extraTerms ?? [])],
      artists: event.artists.map((name) => ({ name, imageUrl: artistPath(name) })),
      platformFeeRate: event.platformFeeRate ?? null,
      posterUrl: posterPath(event.id),
      bannerUrl: widePath(event.id),
    },
    dates: dayOffsets.map((offset) => ({
      day: addDays(today, offset),
      slots: event.slotTimes.map((startTime) => ({
        startTime,
        endTime: plusMinutes(startTime, event.durationMinutes),
        ticketTypes: event.tiers.map((tier) => ({
          key: tier.key,
          ticket: ticketFields(tier, today),
          soldOut: tier.soldOut ?? false,
        })),
      })),
    })),
  };
}

function ticketFields(tier: DemoTier, today: string): TicketTypeFields {
  const opensOn = tier.saleOpensInDays === undefined ? null : addDays(today, tier.saleOpensInDays);
  return {
    name: tier.name,
    priceRupees: tier.rupees,
    totalTickets: tier.total,
    maxPerOrder: MAX_TICKETS_PER_TYPE,
    personAllowedPerTicket: tier.persons ?? 1,
    description: tier.description,
    benefits: tier.benefits ?? [],
    isRefundable: tier.refundable ?? false,
    onSale: true,
    saleOpensAt: opensOn && new Date(`${opensOn}T10:00:00+05:30`).toISOString(),
    saleClosesAt: null,
  };
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 'HH:MM' plus some minutes, on a 24-hour clock (past midnight wraps to the next day's time). */
function plusMinutes(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = (h * 60 + m + minutes) % (24 * 60);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}
