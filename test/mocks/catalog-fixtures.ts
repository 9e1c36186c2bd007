import { CITIES, citiesByDistance, findCity } from '../../shared/cities.ts';
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
    /** events.page: positions are plain offsets here (the server's cursors are opaque to clients). */
    page(filter: { city?: string; exceptCity?: string; category?: string; cursor?: string; limit?: number }) {
      const except = filter.exceptCity ? (findCity(filter.exceptCity)?.name ?? filter.exceptCity) : undefined;
      const all = this.list(filter).filter((e) => e.city !== except);
      return paged(all, filter.cursor, filter.limit ?? 24);
    },
    home(cityInput: string) {
      const known = findCity(cityInput);
      const city = known?.name ?? cityInput;
      const near = this.page({ city, limit: 12 });
      const others = this.page({ exceptCity: city, limit: 12 });
      let alternatives: EventSummary[] = [];
      let alternativesFrom: string | null = null;
      if (near.items.length === 0) {
        if (known) {
          for (const other of citiesByDistance(known.coordinates)) {
            alternatives.push(...this.list({ city: other.name }).slice(0, 8 - alternatives.length));
            if (alternatives.length >= 8) break;
          }
          const names = [...new Set(alternatives.map((e) => e.city))];
          alternativesFrom =
            names.length <= 1 ? (names[0] ?? null) : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
        } else alternatives = others.items.slice(0, 8);
      }
      return { city, near, alternatives, alternativesFrom, others };
    },
    searchPage(q: string, cursor?: string, limit = 24) {
      return { ...paged(this.search(q), cursor, limit), approximate: false };
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

function paged<T>(all: T[], cursor: string | undefined, limit: number) {
  const offset = cursor ? Number(cursor) : 0;
  return {
    items: all.slice(offset, offset + limit),
    nextCursor: all.length > offset + limit ? String(offset + limit) : null,
    total: offset === 0 ? all.length : null,
    totalIsCapped: false,
  };
}
