import { and, count, eq, exists, gte, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import {
  CATALOG_COUNT_CAP,
  CATALOG_PAGE_SIZE,
  type EventPageInput,
} from '../../../shared/catalog-schemas.ts';
import type { EventCategory } from '../../../shared/categories.ts';
import { citiesByDistance, findCity } from '../../../shared/cities.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { bytewise, readSnapshot } from '../../db/engine/reads.ts';
import { row, rows as rowsOf, runSync, type Steps } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { oncePer } from '../../db/once-per.ts';
import { inOneRead } from '../../db/one-read.ts';
import { badRequest } from '../../errors.ts';
import { pricesPlusGst } from '../checkout/checkout-taxes.ts';
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
 * plus the rows it returns, whatever the catalogue's size (test/integration/query-plans.test.ts).
 * The page and its count are read in one snapshot, on either engine (ADR 0045).
 */
export function readEventPage(db: DbOrTx, now: Date, input: EventPageInput): Promise<EventPage> {
  return readSnapshot(db, (db) => eventPageSteps(db, now, input));
}

/** `readEventPage` for SQLite callers not yet awaiting (scripts, older tests). */
export function pageEvents(db: Db, now: Date, input: EventPageInput): EventPage {
  return inOneRead(db, () => runSync(eventPageSteps(db, now, input)));
}

export function* eventPageSteps(db: DbOrTx, now: Date, input: EventPageInput): Steps<EventPage> {
  const limit = input.limit ?? CATALOG_PAGE_SIZE;
  const shape = listShape(input);
  const values: Record<string, unknown> = { now: now.toISOString(), limit: limit + 1 };
  if (input.city) values.city = cityName(input.city);
  else if (input.exceptCity) values.city = cityName(input.exceptCity);
  if (input.category) values.category = input.category;
  if (input.from || input.to) {
    values.from = input.from ? indiaDayStart(input.from) : now.toISOString();
    values.to = input.to ? indiaDayEnd(input.to) : '9999-12-31T00:00:00.000Z';
  }
  if (input.cursor) {
    const [start, name, id] = decodeListCursor(input.cursor);
    Object.assign(values, { afterStart: start, afterName: name, afterId: id });
  }
  const rows = yield* rowsOf(pageQuery(db, shape, Boolean(input.cursor)), values);
  const items = rows.slice(0, limit).map(toCard);
  const last = items.at(-1);
  const nextCursor = rows.length > limit && last ? encodeListCursor(last) : null;

  let total: number | null = null;
  let totalIsCapped = false;
  if (!input.cursor) {
    if (rows.length <= limit) total = items.length;
    else {
      const counted = yield* row(countQuery(db, shape), { ...values, limit: CATALOG_COUNT_CAP + 1 });
      total = counted?.n ?? 0;
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
 * Every list in it is read in one snapshot.
 */
export function readHomeRows(db: DbOrTx, now: Date, cityInput: string): Promise<HomeRows> {
  return readSnapshot(db, (db) => homeRowsSteps(db, now, cityInput));
}

/** `readHomeRows` for SQLite callers not yet awaiting. */
export function homeRows(db: Db, now: Date, cityInput: string): HomeRows {
  return inOneRead(db, () => runSync(homeRowsSteps(db, now, cityInput)));
}

function* homeRowsSteps(db: DbOrTx, now: Date, cityInput: string): Steps<HomeRows> {
  const city = cityName(cityInput);
  const near = yield* eventPageSteps(db, now, { city, limit: HOME_ROW_SIZE });
  const others = yield* eventPageSteps(db, now, { exceptCity: city, limit: HOME_ROW_SIZE });
  let alternatives: EventSummary[] = [];
  let alternativesFrom: string | null = null;
  if (near.items.length === 0) {
    const known = findCity(cityInput);
    if (known) {
      // Nearest cities first, a few events each, until there are enough; each is one index range.
      for (const other of citiesByDistance(known.coordinates)) {
        if (other.name === known.name) continue;
        const page = yield* eventPageSteps(db, now, {
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

/**
 * Which filters a list has: each combination is its own statement, built and prepared once per
 * database (building the query cost 5-8× more than running it, docs/benchmarks.md), its values bound
 * per request.
 */
function listShape(input: EventPageInput): string {
  const city = input.city ? 'city' : input.exceptCity ? 'except' : 'any';
  return `${city}:${input.category ? 'category' : ''}:${input.from || input.to ? 'days' : ''}`;
}

const p = sql.placeholder;

function listFilter(db: DbOrTx, shape: string): SQL {
  const { events, eventDates } = tablesOf(db);
  const [city, category, days] = shape.split(':');
  return and(
    eq(events.status, 'published'),
    gte(events.lastEndsAt, p('now')),
    city === 'city' ? eq(events.city, p('city')) : undefined,
    city === 'except' ? ne(events.city, p('city')) : undefined,
    category ? eq(events.category, p('category')) : undefined,
    days
      ? or(
          exists(
            db
              .select({ one: sql`1` })
              .from(eventDates)
              .where(
                and(
                  eq(eventDates.eventId, events.id),
                  gte(eventDates.dateOfEvent, p('from')),
                  lt(eventDates.dateOfEvent, p('to')),
                ),
              ),
          ),
          and(gte(events.startTime, p('from')), lt(events.startTime, p('to'))),
        )
      : undefined,
  )!;
}

/**
 * Prepared statements per database, kept while its connection compiles with the same function: one
 * that is replaced (a query-plan test recording what requests compile) gets them compiled again.
 */
function perCompiler<V>() {
  const cache = oncePer((_db: DbOrTx) => ({ compiler: undefined as unknown, built: new Map<string, V>() }));
  return (db: DbOrTx): Map<string, V> => {
    const entry = cache(db);
    const compiler = (db as { $client?: { prepare?: unknown } }).$client?.prepare;
    if (entry.compiler !== compiler) {
      entry.compiler = compiler;
      entry.built.clear();
    }
    return entry.built;
  };
}

const pageQueries = perCompiler<ReturnType<typeof buildPageQuery>>();
const countQueries = perCompiler<ReturnType<typeof buildCountQuery>>();

function pageQuery(db: DbOrTx, shape: string, after: boolean) {
  const key = `${shape}:${after}`;
  const built = pageQueries(db);
  let query = built.get(key);
  if (!query) {
    query = buildPageQuery(db, shape, after);
    built.set(key, query);
  }
  return query;
}

function countQuery(db: DbOrTx, shape: string) {
  const built = countQueries(db);
  let query = built.get(shape);
  if (!query) {
    query = buildCountQuery(db, shape);
    built.set(shape, query);
  }
  return query;
}

function buildPageQuery(db: DbOrTx, shape: string, after: boolean) {
  const { events, organiserProfiles } = tablesOf(db);
  const start = bytewise(db, events.startTime);
  const name = bytewise(db, events.name);
  const id = bytewise(db, events.id);
  const cursor = after
    ? sql`(${start}, ${name}, ${id}) > (${p('afterStart')}, ${p('afterName')}, ${p('afterId')})`
    : undefined;
  return db
    .select({
      id: events.id,
      name: events.name,
      category: events.category,
      city: events.city,
      posterUrl: events.posterUrl,
      imagesUrls: events.imagesUrls,
      startTime: events.startTime,
      endTime: events.endTime,
      eventLocationText: events.eventLocationText,
      lowestPricePaise: events.lowestPricePaise,
      gstin: organiserProfiles.gstin,
      eventTaxInclusive: events.taxInclusive,
      taxInclusive: organiserProfiles.taxInclusive,
    })
    .from(events)
    .leftJoin(organiserProfiles, eq(organiserProfiles.userId, events.ownerId))
    .where(and(listFilter(db, shape), cursor))
    .orderBy(start, name, id)
    .limit(p('limit'))
    .prepare();
}

function buildCountQuery(db: DbOrTx, shape: string) {
  const { events } = tablesOf(db);
  const listed = db
    .select({ one: sql`1`.as('one') })
    .from(events)
    .where(listFilter(db, shape))
    .limit(p('limit'))
    .as('listed');
  return db.select({ n: count() }).from(listed).prepare();
}

type CardRow = Awaited<ReturnType<ReturnType<typeof buildPageQuery>['all']>>[number];

/** A card from its row: the "+ GST" flag by checkout's own rule. */
function toCard(row: CardRow): EventSummary {
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
    lowestPricePaise: row.lowestPricePaise,
    pricesPlusGst: pricesPlusGst({
      gstin: row.gstin,
      eventTaxInclusive: row.eventTaxInclusive,
      taxInclusive: row.taxInclusive ?? true,
    }),
  };
}
