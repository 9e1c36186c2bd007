import {
  CATALOG_COUNT_CAP,
  CATALOG_PAGE_SIZE,
  type EventPageInput,
} from '../../../shared/catalog-schemas.ts';
import type { EventCategory } from '../../../shared/categories.ts';
import { citiesByDistance, findCity } from '../../../shared/cities.ts';
import type { Db } from '../../db/client.ts';
import { inOneRead } from '../../db/one-read.ts';
import { badRequest } from '../../errors.ts';
import type { EventSummary } from './event-summary.ts';

/** One page of a catalogue list. `total` is given on the first page only, counted up to CATALOG_COUNT_CAP. */
export interface EventPage {
  items: EventSummary[];
  nextCursor: string | null;
  /** How many events the whole list has (at most CATALOG_COUNT_CAP, then `totalIsCapped`); first page only. */
  total: number | null;
  totalIsCapped: boolean;
}

export const INVALID_CURSOR = 'This list has changed. Please reload the page.';

/**
 * Whether the card's "from" price has GST added on top (issue 40): the rule of checkout/checkout-taxes.ts
 * pricesPlusGst, read through the profile's primary key.
 */
const PRICES_PLUS_GST_COLUMN = `coalesce((select p.gstin is not null and not coalesce(e.tax_inclusive, p.tax_inclusive)
  from organiser_profiles p where p.user_id = e.owner_id), 0) as prices_plus_gst`;

/** The columns an event card shows, in the order `toSummary` reads them. */
export const SUMMARY_COLUMNS = `e.id, e.name, e.category, e.city, e.poster_url, e.images_urls, e.start_time,
  e.end_time, e.event_location_text, e.lowest_price_paise, ${PRICES_PLUS_GST_COLUMN}`;

export interface SummaryRow {
  id: string;
  name: string;
  category: EventCategory;
  city: string;
  poster_url: string | null;
  images_urls: string;
  start_time: string;
  end_time: string | null;
  event_location_text: string;
  lowest_price_paise: number | null;
  prices_plus_gst: number;
}

export function toSummary(row: SummaryRow): EventSummary {
  const images = JSON.parse(row.images_urls) as string[];
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    city: row.city,
    posterUrl: row.poster_url,
    imageUrl: images[0] ?? null,
    startTime: row.start_time,
    endTime: row.end_time,
    eventLocationText: row.event_location_text,
    lowestPricePaise: row.lowest_price_paise,
    pricesPlusGst: row.prices_plus_gst === 1,
  };
}

/**
 * One page of upcoming events (still on at `now`), soonest first (then by name and id, so the order is
 * total and a cursor names an exact position). Every filter and the order come from one of the
 * `events_list_*` indexes, which also carry `last_ends_at`: a page reads about `limit` index entries
 * plus the rows it returns, whatever the catalogue's size (test/integration/catalogue-plans.test.ts).
 * The page and its count are read in one transaction.
 */
export function pageEvents(db: Db, now: Date, input: EventPageInput): EventPage {
  return inOneRead(db, () => readPage(db, now, input));
}

function readPage(db: Db, now: Date, input: EventPageInput): EventPage {
  const limit = input.limit ?? CATALOG_PAGE_SIZE;
  const where: string[] = ["e.status = 'published'", 'e.last_ends_at >= ?'];
  const params: unknown[] = [now.toISOString()];
  if (input.city) {
    // An unknown typed city (spec §4 saves it as given) simply has no events.
    where.push('e.city = ?');
    params.push(cityName(input.city));
  } else if (input.exceptCity) {
    where.push('e.city <> ?');
    params.push(cityName(input.exceptCity));
  }
  if (input.category) {
    where.push('e.category = ?');
    params.push(input.category);
  }
  if (input.from || input.to) {
    const from = input.from ? indiaDayStart(input.from) : now.toISOString();
    const to = input.to ? indiaDayEnd(input.to) : '9999-12-31T00:00:00.000Z';
    where.push(`(exists (select 1 from event_dates d where d.event_id = e.id and d.date_of_event >= ?
      and d.date_of_event < ?) or (e.start_time >= ? and e.start_time < ?))`);
    params.push(from, to, from, to);
  }
  const filter = where.join(' and ');
  const sqlite = db.$client;

  const pageWhere = [filter];
  const pageParams = [...params];
  if (input.cursor) {
    pageWhere.push('(e.start_time, e.name, e.id) > (?, ?, ?)');
    pageParams.push(...decodeListCursor(input.cursor));
  }
  const rows = sqlite
    .prepare(
      `select ${SUMMARY_COLUMNS} from events e where ${pageWhere.join(' and ')}
       order by e.start_time, e.name, e.id limit ?`,
    )
    .all(...pageParams, limit + 1) as SummaryRow[];
  const items = rows.slice(0, limit).map(toSummary);
  const last = items.at(-1);
  const nextCursor = rows.length > limit && last ? encodeListCursor(last) : null;

  let total: number | null = null;
  let totalIsCapped = false;
  if (!input.cursor) {
    if (rows.length <= limit) total = items.length;
    else {
      total = sqlite
        .prepare(`select count(*) from (select 1 from events e where ${filter} limit ?)`)
        .pluck()
        .get(...params, CATALOG_COUNT_CAP + 1) as number;
      totalIsCapped = total > CATALOG_COUNT_CAP;
      if (totalIsCapped) total = CATALOG_COUNT_CAP;
    }
  }
  return { items, nextCursor, total, totalIsCapped };
}

/** How many events from the nearest cities to suggest when the chosen city has none. */
export const HOME_ALTERNATIVES = 8;
/** Cards in each home row's first answer; more come with `events.page`. */
export const HOME_ROW_SIZE = 12;

export interface HomeRows {
  /** The chosen city as events name it (an alias resolved). */
  city: string;
  near: EventPage;
  /** When the city has nothing on: events from the nearest cities that have some (or simply the soonest). */
  alternatives: EventSummary[];
  alternativesFrom: string | null;
  /** 'You may also like': every other city's events. */
  others: EventPage;
}

/**
 * The home page's first paint in one answer: the chosen city's first events with their count, or the
 * nearest cities' events when it has none, and the first of everyone else's. A few KB at any size.
 * Every list in it is read in one transaction.
 */
export function homeRows(db: Db, now: Date, cityInput: string): HomeRows {
  return inOneRead(db, () => readHomeRows(db, now, cityInput));
}

function readHomeRows(db: Db, now: Date, cityInput: string): HomeRows {
  const city = cityName(cityInput);
  const near = pageEvents(db, now, { city, limit: HOME_ROW_SIZE });
  const others = pageEvents(db, now, { exceptCity: city, limit: HOME_ROW_SIZE });
  let alternatives: EventSummary[] = [];
  let alternativesFrom: string | null = null;
  if (near.items.length === 0) {
    const known = findCity(cityInput);
    if (known) {
      // Nearest cities first, a few events each, until there are enough; each is one index range.
      for (const other of citiesByDistance(known.coordinates)) {
        if (other.name === known.name) continue;
        const page = pageEvents(db, now, {
          city: other.name,
          limit: HOME_ALTERNATIVES - alternatives.length,
        });
        alternatives.push(...page.items);
        if (alternatives.length >= HOME_ALTERNATIVES) break;
      }
      const cities = [...new Set(alternatives.map((e) => e.city))];
      alternativesFrom = cities.length ? formatList(cities) : null;
    } else {
      alternatives = others.items.slice(0, HOME_ALTERNATIVES);
    }
  }
  return { city, near, alternatives, alternativesFrom, others };
}

function formatList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function cityName(input: string): string {
  return findCity(input)?.name ?? input;
}

export function encodeListCursor(last: EventSummary): string {
  return Buffer.from(JSON.stringify([last.startTime, last.name, last.id])).toString('base64url');
}

export function decodeListCursor(cursor: string): [string, string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string')) {
      return value as [string, string, string];
    }
  } catch {
    // falls through to the refusal below
  }
  throw badRequest(INVALID_CURSOR);
}

/** Midnight at the start of an India calendar day ('yyyy-MM-dd'), as a UTC ISO string. */
export function indiaDayStart(day: string): string {
  return new Date(`${day}T00:00:00.000+05:30`).toISOString();
}

export function indiaDayEnd(day: string): string {
  return new Date(new Date(`${day}T00:00:00.000+05:30`).getTime() + 86_400_000).toISOString();
}
