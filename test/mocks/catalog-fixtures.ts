import { CITIES, findCity } from '../../shared/cities.ts';
import { lowestPricePaise } from '../../shared/lowest-price.ts';
import type { RouterOutputs } from '../../src-client/lib/trpc.ts';
import { demoEvents } from '../../src-server/db/seed/demo-events.ts';
import type { EventDocument } from '../../src-server/services/catalog/insert-event.ts';

type EventSummary = RouterOutputs['events']['list'][number];
type EventDetail = RouterOutputs['events']['byId'];

/**
 * The demo catalogue in the shapes the events procedures answer with, for msw handlers (`dev:mock`
 * and client tests). Built from the same demo data the server seeds, dated relative to `now`.
 */
export function mockCatalog(now = new Date()) {
  const details = demoEvents(now)
    .map(toDetail)
    .sort((a, b) => a.startTime.localeCompare(b.startTime));
  const summaries = details.map(toSummary);
  return {
    details,
    summaries,
    list(filter: { city?: string; category?: string } = {}) {
      const city = filter.city ? (findCity(filter.city)?.name ?? filter.city) : undefined;
      return summaries.filter(
        (e) => (!city || e.city === city) && (!filter.category || e.category === filter.category),
      );
    },
    search(q: string) {
      const text = q.trim().toLowerCase();
      const aliasCities = CITIES.filter((c) => c.aliases.some((a) => a.toLowerCase().includes(text))).map(
        (c) => c.name,
      );
      return details
        .filter(
          (e) =>
            [e.name, e.eventLocationText, e.city, ...(e.artistLineup ?? []).map((a) => a.name)].some((t) =>
              t.toLowerCase().includes(text),
            ) || aliasCities.includes(e.city),
        )
        .map(toSummary);
    },
  };
}

function toDetail(doc: EventDocument): EventDetail {
  const tickets = doc.tickets.map((date) => ({
    id: date.id,
    dateOfEvent: date.dateOfEvent,
    isLive: date.isLive,
    slots: date.slots.map((slot) => ({
      id: slot.id,
      startTime: slot.startTime,
      endTime: slot.endTime,
      cancelled: false,
      tickets: slot.tickets.map((t) => ({ maxPerOrder: 10, saleOpensAt: null, saleClosesAt: null, ...t })),
    })),
  }));
  return {
    id: doc.id,
    name: doc.name,
    category: doc.category,
    city: doc.city,
    posterUrl: doc.posterUrl,
    imageUrl: doc.imagesUrls[0] ?? null,
    startTime: doc.startTime,
    endTime: doc.endTime,
    eventLocationText: doc.eventLocationText,
    lowestPricePaise: lowestPricePaise(tickets),
    description: doc.description,
    imagesUrls: doc.imagesUrls,
    googleMapsEmbedLink: doc.googleMapsEmbedLink,
    ageRestrictions: doc.ageRestrictions,
    artistLineup: doc.artistLineup,
    termsAndConditions: doc.termsAndConditions,
    platformFeeRate: doc.platformFeeRate,
    tickets,
    status: 'published' as const,
  };
}

function toSummary(e: EventDetail): EventSummary {
  return {
    id: e.id,
    name: e.name,
    category: e.category,
    city: e.city,
    posterUrl: e.posterUrl,
    imageUrl: e.imageUrl,
    startTime: e.startTime,
    endTime: e.endTime,
    eventLocationText: e.eventLocationText,
    lowestPricePaise: e.lowestPricePaise,
  };
}
