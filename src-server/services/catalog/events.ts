import { asc, eq } from 'drizzle-orm';
import type { EventListInput } from '../../../shared/catalog-schemas.ts';
import type { EventStatus } from '../../../shared/event-editor-schemas.ts';
import type { RefundPolicy } from '../../../shared/refund-policy.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, rows, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { notFound } from '../../errors.ts';
import { unlockedTypeIdsSteps } from '../access-codes/hidden-types.ts';
import { pricesPlusGst } from '../checkout/checkout-taxes.ts';
import { readEventPage } from './event-pages.ts';
import type { EventSummary } from './event-summary.ts';
import { searchEventPage } from './search-events.ts';
import { type EventDateDetail, ticketTreeSteps } from './ticket-tree.ts';

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
 * LIST_MAX of them, so no request can ask for the whole catalogue (pages: `readEventPage`).
 */
export async function listEvents(
  db: DbOrTx,
  now: Date,
  filter: EventListInput = {},
): Promise<EventSummary[]> {
  return (await readEventPage(db, now, { ...filter, limit: LIST_MAX })).items;
}

/**
 * The best SEARCH_MAX upcoming events for the text: name, artists, venue, city (or an alias) and
 * category (or a synonym); misspellings found by similarity (`searchEventPage`).
 */
export async function searchEvents(db: Db, now: Date, query: string): Promise<EventSummary[]> {
  // Awaited: the app's `Db` may be PostgreSQL's (DATABASE_URL), whose search answers a promise.
  return (await searchEventPage(db, now, { q: query, limit: SEARCH_MAX })).items;
}

interface EventOptions {
  preview?: boolean;
  accessCode?: string;
  now?: Date;
}

/**
 * One event with everything its detail page shows; 'Event not found' when it does not exist or is a
 * draft, unless `preview` (the event's team, checked by the caller). A cancelled event is shown, marked
 * cancelled (its buyers follow links to it), though no list, search or Proceed reaches it. On either
 * engine (ADR 0045).
 */
export function readEvent(db: DbOrTx, id: string, options: EventOptions = {}): Promise<EventDetail> {
  return runStatements(db, (db) => eventDetailSteps(db, id, options));
}

/** `readEvent` for SQLite callers not yet awaiting. */
export function getEvent(db: DbOrTx, id: string, options: EventOptions = {}): EventDetail {
  return runSync(eventDetailSteps(db, id, options));
}

function* eventDetailSteps(db: DbOrTx, id: string, options: EventOptions): Steps<EventDetail> {
  const { events, artists, organiserProfiles } = tablesOf(db);
  const found = yield* row(
    db
      .select({
        event: events,
        gstin: organiserProfiles.gstin,
        taxInclusive: organiserProfiles.taxInclusive,
      })
      .from(events)
      .leftJoin(organiserProfiles, eq(organiserProfiles.userId, events.ownerId))
      .where(eq(events.id, id)),
  );
  const event = found?.event;
  if (!found || !event || (event.status === 'draft' && !options.preview)) throw notFound(EVENT_NOT_FOUND);

  const lineup = yield* rows(
    db
      .select({ name: artists.name, imageUrl: artists.imageUrl })
      .from(artists)
      .where(eq(artists.eventId, id))
      .orderBy(asc(artists.position), asc(artists.id)),
  );
  // Hidden types: all for the team's preview, else only those the buyer's access code unlocks (ADR 0038).
  const shown = options.preview
    ? 'all'
    : yield* unlockedTypeIdsSteps(db, id, options.accessCode, options.now ?? new Date());
  const tickets = yield* ticketTreeSteps(db, id, shown, { limitByQuotas: true });

  return {
    id: event.id,
    name: event.name,
    category: event.category,
    city: event.city,
    posterUrl: event.posterUrl,
    imageUrl: event.imagesUrls[0] ?? null,
    startTime: event.startTime,
    endTime: event.endTime,
    eventLocationText: event.eventLocationText,
    // Kept by refreshEventListing over the same ticket types the tree below holds.
    lowestPricePaise: event.lowestPricePaise,
    pricesPlusGst: pricesPlusGst({
      gstin: found.gstin,
      eventTaxInclusive: event.taxInclusive,
      taxInclusive: found.taxInclusive ?? true,
    }),
    description: event.description,
    imagesUrls: event.imagesUrls,
    googleMapsEmbedLink: event.googleMapsEmbedLink,
    ageRestrictions: event.ageRestrictions,
    language: event.language?.trim() || null,
    artistLineup: lineup.length > 0 ? lineup : null,
    termsAndConditions: event.termsAndConditions,
    platformFeeRate: event.platformFeeRate,
    refundPolicy: {
      cutoffHours: event.refundCutoffHours,
      rule: event.refundRule,
      percent: event.refundPercent,
    },
    tickets,
    status: event.status,
  };
}
