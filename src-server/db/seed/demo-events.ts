import { indiaCalendarDay } from '../../../shared/dates.ts';
import { rupeesToPaise } from '../../../shared/money.ts';
import type { EventDocument, TicketTypeDocument } from '../../services/catalog/insert-event.ts';
import { artistSlug, DEMO_EVENTS, type DemoEvent, type DemoTier } from './demo-catalog.ts';

/** Terms every demo event carries; some events add their own. */
const COMMON_TERMS = [
  'Carry a valid government photo ID along with your ticket QR code; entry may be refused without it.',
  'Tickets are non-transferable and may not be resold.',
  'Refunds and cancellations follow the organiser’s policy shown on the ticket type.',
  'The organiser may refuse entry to anyone under the influence of alcohol or drugs.',
  'Outside food, drinks, sharp objects and professional cameras are not allowed.',
];

/** Demo catalogue, dated relative to `now` (India calendar days), so every event is upcoming. */
export function demoEvents(now: Date): EventDocument[] {
  const today = indiaCalendarDay(now);
  return DEMO_EVENTS.map((event) => toDocument(event, today));
}

export const posterPath = (eventId: string) => `/images/events/${eventId}-poster.webp`;
export const widePath = (eventId: string) => `/images/events/${eventId}-wide.webp`;
export const artistPath = (name: string) => `/images/artists/${artistSlug(name)}.webp`;

function toDocument(event: DemoEvent, today: string): EventDocument {
  const dayOffsets = [event.inDays, ...(event.moreDays ?? []).map((d) => event.inDays + d)];
  const tickets = dayOffsets.map((offset, dateIndex) => {
    const day = addDays(today, offset);
    const dateId = `${event.id}-d${dateIndex + 1}`;
    return {
      id: dateId,
      dateOfEvent: indiaInstant(day, '00:00'),
      isLive: true,
      slots: event.slotTimes.map((time, slotIndex) => {
        const slotId = `${dateId}-s${slotIndex + 1}`;
        const start = indiaInstant(day, time);
        return {
          id: slotId,
          startTime: start,
          endTime: plusMinutes(start, event.durationMinutes),
          tickets: event.tiers.map((tier) => ticketType(slotId, tier)),
        };
      }),
    };
  });
  const firstStart = indiaInstant(addDays(today, event.inDays), event.slotTimes[0]!);
  return {
    id: event.id,
    name: event.name,
    description: event.description,
    category: event.category,
    city: event.city,
    imagesUrls: [widePath(event.id)],
    posterUrl: posterPath(event.id),
    startTime: firstStart,
    endTime: plusMinutes(firstStart, event.durationMinutes),
    eventLocationText: event.venue,
    googleMapsEmbedLink: `https://www.google.com/maps?q=${encodeURIComponent(event.venue)}&output=embed`,
    ageRestrictions: event.ageLimit,
    artistLineup: event.artists.length
      ? event.artists.map((name) => ({ name, imageUrl: artistPath(name) }))
      : null,
    termsAndConditions: [...COMMON_TERMS, ...(event.extraTerms ?? [])],
    platformFeeRate: event.platformFeeRate ?? null,
    tickets,
  };
}

function ticketType(slotId: string, tier: DemoTier): TicketTypeDocument {
  return {
    id: `${slotId}-${tier.key}`,
    name: tier.name,
    pricePaise: rupeesToPaise(tier.rupees),
    personAllowedPerTicket: tier.persons ?? 1,
    description: tier.description,
    isRefundable: tier.refundable ?? false,
    totalTickets: tier.total,
    availableTickets: tier.soldOut ? 0 : tier.total,
    isLive: !tier.notLive,
    benefits: tier.benefits ?? [],
  };
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A wall-clock time on an India calendar day, as a UTC ISO instant. */
function indiaInstant(day: string, time: string): string {
  return new Date(`${day}T${time}:00.000+05:30`).toISOString();
}

function plusMinutes(instant: string, minutes: number): string {
  return new Date(new Date(instant).getTime() + minutes * 60_000).toISOString();
}
