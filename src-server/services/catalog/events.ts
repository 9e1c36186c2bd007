import { asc, eq } from 'drizzle-orm';
import type { EventListInput } from '../../../shared/catalog-schemas.ts';
import type { EventStatus } from '../../../shared/event-editor-schemas.ts';
import type { RefundPolicy } from '../../../shared/refund-policy.ts';
import type { Db } from '../../db/client.ts';
import { artists, events } from '../../db/schema/catalog.ts';
import { notFound } from '../../errors.ts';
import { unlockedTypeIds } from '../access-codes/hidden-types.ts';
import { eventPricesPlusGst } from '../checkout/checkout-taxes.ts';
import { limitByQuotas } from '../quotas/limit-by-quotas.ts';
import { pageEvents } from './event-pages.ts';
import type { EventSummary } from './event-summary.ts';
import { searchEventPage } from './search-events.ts';
import { type EventDateDetail, loadTicketTree } from './ticket-tree.ts';

export type { EventSummary };

/** The event detail in the spec's nested shape (dates → slots → ticket types), prices in paise. */
export interface EventDetail extends EventSummary {
  description: string;
  imagesUrls: string[];
  googleMapsEmbedLink: string | null;
  ageRestrictions: number | null;
  /** As the organiser wrote it; null when not given (the page then leaves it out). */
  language: string | null;
  /** Null when the event lists no artists (the Artists section is then hidden). */
  artistLineup: { name: string; imageUrl: string | null }[] | null;
  termsAndConditions: string[];
  platformFeeRate: number | null;
  /** Buyer cancellation of refundable ticket types (issue 16), shown before purchase. */
  refundPolicy: RefundPolicy;
  tickets: EventDateDetail[];
  /** 'cancelled' events stay readable so buyers holding a link see that they are cancelled. */
  status: EventStatus;
}

export const EVENT_NOT_FOUND = 'Event not found';

/** The most events the unpaged `events.list` answers (the storefront asks `events.page` instead). */
export const LIST_MAX = 100;
/** The most results the unpaged `events.search` answers (the search page asks `events.searchPage`). */
export const SEARCH_MAX = 48;

/**
 * Upcoming events (not yet over at `now`), soonest first, optionally narrowed to one city (name or
 * alias), one category and a range of India calendar days on which the event has a date: the first
 * LIST_MAX of them, so no request can ask for the whole catalogue (pages: `pageEvents`).
 */
export function listEvents(db: Db, now: Date, filter: EventListInput = {}): EventSummary[] {
  return pageEvents(db, now, { ...filter, limit: LIST_MAX }).items;
}

/**
 * The best SEARCH_MAX upcoming events for the text: name, artists, venue, city (or an alias) and
 * category (or a synonym); misspellings found by similarity (`searchEventPage`).
 */
export function searchEvents(db: Db, now: Date, query: string): EventSummary[] {
  return searchEventPage(db, now, { q: query, limit: SEARCH_MAX }).items;
}

/**
 * One event with everything its detail page shows; 'Event not found' when it does not exist or is a
 * draft, unless `preview` (the event's team, checked by the caller). A cancelled event is shown, marked
 * cancelled (its buyers follow links to it), though no list, search or Proceed reaches it.
 */
export function getEvent(
  db: Db,
  id: string,
  options: { preview?: boolean; accessCode?: string; now?: Date } = {},
): EventDetail {
  const row = db.select().from(events).where(eq(events.id, id)).get();
  if (!row || (row.status === 'draft' && !options.preview)) throw notFound(EVENT_NOT_FOUND);

  const lineup = db
    .select({ name: artists.name, imageUrl: artists.imageUrl })
    .from(artists)
    .where(eq(artists.eventId, id))
    .orderBy(asc(artists.position), asc(artists.id))
    .all();
  // Hidden types: all for the team's preview, else only those the buyer's access code unlocks (ADR 0038).
  const tickets = limitByQuotas(
    db,
    loadTicketTree(
      db,
      id,
      options.preview ? 'all' : unlockedTypeIds(db, id, options.accessCode, options.now ?? new Date()),
    ),
  );

  return {
    id: row.id,
    name: row.name,
    category: row.category,
    city: row.city,
    posterUrl: row.posterUrl,
    imageUrl: row.imagesUrls[0] ?? null,
    startTime: row.startTime,
    endTime: row.endTime,
    eventLocationText: row.eventLocationText,
    // Kept by refreshEventListing over the same ticket types the tree below holds.
    lowestPricePaise: row.lowestPricePaise,
    pricesPlusGst: eventPricesPlusGst(db, id),
    description: row.description,
    imagesUrls: row.imagesUrls,
    googleMapsEmbedLink: row.googleMapsEmbedLink,
    ageRestrictions: row.ageRestrictions,
    language: row.language?.trim() || null,
    artistLineup: lineup.length > 0 ? lineup : null,
    termsAndConditions: row.termsAndConditions,
    platformFeeRate: row.platformFeeRate,
    refundPolicy: { cutoffHours: row.refundCutoffHours, rule: row.refundRule, percent: row.refundPercent },
    tickets,
    status: row.status,
  };
}
