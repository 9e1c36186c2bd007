import { CITIES, citiesByDistance, findCity } from '../../shared/cities.ts';
import { slotEndsNextDay } from '../../shared/event-editor-schemas.ts';
import { lowestPricePaise } from '../../shared/lowest-price.ts';
import { rupeesToPaise } from '../../shared/money.ts';
import { DEFAULT_REFUND_CUTOFF_HOURS } from '../../shared/refund-policy.ts';
import type { RouterOutputs } from '../../src-client/lib/trpc.ts';
import { type DemoEventPlan, demoEvents } from '../../src-server/db/seed/demo-events.ts';

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

/**
 * What the server answers for a demo event once seed.ts has made it through the event editor: ids are
 * made up (the editor's are random), the event's start and end are its earliest slot's start and
 * latest slot's end, and sold-out types have no seats left.
 */
function toDetail(plan: DemoEventPlan): EventDetail {
  const tickets = plan.dates.map((date, d) => ({
    id: `${plan.id}-d${d + 1}`,
    dateOfEvent: indiaInstant(date.day, '00:00'),
    isLive: true,
    slots: date.slots.map((slot, s) => {
      const startTime = indiaInstant(date.day, slot.startTime);
      const sameDayEnd = Date.parse(indiaInstant(date.day, slot.endTime));
      const endTime = new Date(sameDayEnd + (slotEndsNextDay(slot) ? 86_400_000 : 0)).toISOString();
      return {
        id: `${plan.id}-d${d + 1}-s${s + 1}`,
        startTime,
        endTime,
        cancelled: false,
        tickets: slot.ticketTypes.map(({ key, ticket, soldOut }) => ({
          id: `${plan.id}-d${d + 1}-s${s + 1}-${key}`,
          name: ticket.name,
          pricePaise: rupeesToPaise(ticket.priceRupees),
          personAllowedPerTicket: ticket.personAllowedPerTicket,
          description: ticket.description,
          isRefundable: ticket.isRefundable,
          totalTickets: ticket.totalTickets,
          availableTickets: soldOut ? 0 : ticket.totalTickets,
          isLive: ticket.onSale,
          benefits: ticket.benefits,
          maxPerOrder: ticket.maxPerOrder,
          saleOpensAt: ticket.saleOpensAt,
          saleClosesAt: ticket.saleClosesAt,
          isHidden: ticket.isHidden ?? false,
        })),
      };
    }),
  }));
  const slots = tickets.flatMap((date) => date.slots);
  const { details } = plan;
  return {
    id: plan.id,
    name: details.name,
    category: details.category,
    city: details.city,
    posterUrl: details.posterUrl ?? null,
    pricesPlusGst: false,
    imageUrl: details.bannerUrl ?? null,
    startTime: slots.map((s) => s.startTime).sort()[0]!,
    endTime: slots
      .map((s) => s.endTime)
      .sort()
      .at(-1)!,
    eventLocationText: details.eventLocationText,
    lowestPricePaise: lowestPricePaise(tickets),
    description: details.description,
    imagesUrls: details.bannerUrl ? [details.bannerUrl] : [],
    googleMapsEmbedLink: details.googleMapsEmbedLink || null,
    ageRestrictions: details.ageRestrictions,
    language: details.language?.trim() || null,
    artistLineup: details.artists.length
      ? details.artists.map((a) => ({ name: a.name, imageUrl: a.imageUrl ?? null }))
      : null,
    termsAndConditions: details.termsAndConditions,
    platformFeeRate: details.platformFeeRate,
    refundPolicy: {
      cutoffHours: details.refundCutoffHours ?? DEFAULT_REFUND_CUTOFF_HOURS,
      rule: details.refundRule ?? 'full',
      percent: details.refundPercent ?? null,
    },
    tickets,
    status: 'published' as const,
  };
}

const indiaInstant = (day: string, time: string) => new Date(`${day}T${time}:00.000+05:30`).toISOString();

function toSummary(e: EventDetail): EventSummary {
  return {
    id: e.id,
    pricesPlusGst: e.pricesPlusGst,
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
