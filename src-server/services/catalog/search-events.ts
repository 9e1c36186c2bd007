import { is } from 'drizzle-orm';
import { PgDatabase } from 'drizzle-orm/pg-core';
import {
  CATALOG_COUNT_CAP,
  CATALOG_PAGE_SIZE,
  type EventSearchPageInput,
} from '../../../shared/catalog-schemas.ts';
import type { EventCategory } from '../../../shared/categories.ts';
import type { Db } from '../../db/client.ts';
import type { PgDb } from '../../db/engine/postgres.ts';
import { inOneRead } from '../../db/one-read.ts';
import { pageEvents, SUMMARY_COLUMNS, type SummaryRow, toSummary } from './event-pages.ts';
import type { EventSummary } from './event-summary.ts';
import { searchEventPageOnPostgres } from './search-events-pg.ts';
import {
  categoriesNamedBy,
  citiesNamedBy,
  closestSpellings,
  decodePosition,
  encodePosition,
  FUZZY_CANDIDATES,
  type FuzzyCandidate,
  fuzzyPage,
  fuzzyWords,
  innerTrigrams,
  listNamedBy,
  type SearchPage,
  words3,
} from './search-terms.ts';

/**
 * Ranked search over published upcoming events (name, artists, venue, city, category) from the
 * `event_search` FTS5 index (trigram tokenizer: any part of a word, any case): best match first
 * (bm25, name and artists weigh most), then soonest. Category synonyms and city aliases widen the
 * query. When nothing matches as typed, words are matched by trigram similarity instead, so "arjit"
 * finds Arijit. Paginated by position; the count is given on the first page, up to CATALOG_COUNT_CAP.
 * All of a page's reads are one read transaction.
 */
export function searchEventPage(db: Db, now: Date, input: EventSearchPageInput): SearchPage;
export function searchEventPage(db: PgDb, now: Date, input: EventSearchPageInput): Promise<SearchPage>;
export function searchEventPage(
  db: Db | PgDb,
  now: Date,
  input: EventSearchPageInput,
): SearchPage | Promise<SearchPage> {
  // The engine is the database's own (ADR 0035, "Search"): PostgreSQL answers from its tsvector and
  // trigram indexes, with the same query expansion (search-terms.ts); callers do not change.
  if (is(db, PgDatabase)) return searchEventPageOnPostgres(db as PgDb, now, input);
  const sqlite = db as Db;
  return inOneRead(sqlite, () => readSearchPage(sqlite, now, input));
}

function readSearchPage(db: Db, now: Date, input: EventSearchPageInput): SearchPage {
  const limit = input.limit ?? CATALOG_PAGE_SIZE;
  const position = input.cursor ? decodePosition(input.cursor) : ({ kind: 'o', offset: 0 } as const);

  // A query that is a category ('stand-up') or a city ('Bangalore') is that list, from its index:
  // the same answer as the ranked search would give first, at a list's cost.
  const list = listNamedBy(input.q);
  if (list) {
    const page = pageEvents(db, now, {
      ...list,
      limit,
      ...(position.kind === 'l' && { cursor: position.cursor }),
    });
    return {
      ...page,
      nextCursor: page.nextCursor ? encodePosition({ kind: 'l', cursor: page.nextCursor }) : null,
      approximate: false,
    };
  }

  const expression = matchExpression(input.q);
  if (!expression) return { items: [], nextCursor: null, total: 0, totalIsCapped: false, approximate: false };
  const instant = now.toISOString();
  if (position.kind === 'f') return fuzzyPage(fuzzySearch(db, instant, input.q), position.offset, limit);
  const offset = position.kind === 'o' ? position.offset : 0;

  // The first page reads the whole ranking (up to the count's cap) in one pass of the index: the
  // count and the page's order come from that one read. FTS5 scores every match to order by rank
  // whatever the LIMIT, so a separate count query read every match a second time (issue 25).
  const ranking =
    offset === 0
      ? (db.$client
          .prepare('select rowid from event_search where event_search match ? order by rank limit ?')
          .pluck()
          .all(expression, CATALOG_COUNT_CAP + 1) as number[])
      : undefined;
  const { items, nextOffset } = rankedPage(db, instant, expression, offset, limit, ranking);
  if (items.length === 0 && offset === 0) {
    const fuzzy = fuzzySearch(db, instant, input.q);
    if (fuzzy.length > 0) return fuzzyPage(fuzzy, 0, limit);
  }
  let total: number | null = null;
  let totalIsCapped = false;
  if (ranking) {
    // Counted in the index alone: may include a few events that have just ended (see ADR 0021).
    total = nextOffset === null ? items.length : Math.min(ranking.length, CATALOG_COUNT_CAP);
    totalIsCapped = ranking.length > CATALOG_COUNT_CAP;
  }
  return {
    items,
    nextCursor:
      nextOffset !== null && nextOffset < CATALOG_COUNT_CAP
        ? encodePosition({ kind: 'o', offset: nextOffset })
        : null,
    total,
    totalIsCapped,
    approximate: false,
  };
}

/**
 * Best matches first, from the FTS5 index alone (its own ORDER BY rank, which is fast), then the page's
 * events loaded by key. Documents of events that have ended since they were written are skipped, so a
 * page may take a second read of the ranking. `ranking`, when given, is the ranking's first
 * CATALOG_COUNT_CAP + 1 documents, already read: the page is taken from it.
 */
function rankedPage(
  db: Db,
  instant: string,
  expression: string,
  offset: number,
  limit: number,
  ranking?: number[],
): { items: EventSummary[]; nextOffset: number | null } {
  const sqlite = db.$client;
  const ranked = sqlite.prepare(
    'select rowid from event_search where event_search match ? order by rank limit ? offset ?',
  );
  // One statement for the batch's events (in any order), put back in ranking order below.
  const load = sqlite.prepare(
    // CROSS JOIN fixes the order (the batch's ids, then each by key): left to itself the planner may
    // walk every published event instead.
    `select k.doc_id as doc, ${SUMMARY_COLUMNS} from json_each(?) j
     cross join event_search_keys k on k.doc_id = j.value
     cross join events e on e.id = k.event_id
     where e.status = 'published' and e.last_ends_at >= ?`,
  );
  const items: EventSummary[] = [];
  let at = offset;
  for (let round = 0; round < 4; round += 1) {
    const batch = limit + 1 - items.length;
    const docs = ranking
      ? ranking.slice(at, at + batch)
      : (ranked.pluck().all(expression, batch, at) as number[]);
    const rows = new Map(
      (load.all(JSON.stringify(docs), instant) as (SummaryRow & { doc: number })[]).map((r) => [r.doc, r]),
    );
    for (const doc of docs) {
      at += 1;
      const row = rows.get(doc);
      if (row) items.push(toSummary(row));
      if (items.length > limit) {
        // One more than the page: there is a next page, starting at that one.
        items.pop();
        return { items, nextOffset: at - 1 };
      }
    }
    if (docs.length < batch) return { items, nextOffset: null };
  }
  return { items, nextOffset: at };
}

export interface Suggestions {
  events: { id: string; name: string; city: string }[];
  categories: EventCategory[];
  cities: string[];
}

/**
 * Typeahead: a few best-matching events, and the categories and cities the text names. Awaited: the app's
 * `Db` may be PostgreSQL's (DATABASE_URL), whose search answers a promise.
 */
export async function suggestEvents(db: Db, now: Date, q: string): Promise<Suggestions> {
  const text = q.trim();
  const page = await searchEventPage(db, now, { q: text, limit: 5 });
  return {
    events: page.items.map((e) => ({ id: e.id, name: e.name, city: e.city })),
    categories: categoriesNamedBy(text),
    cities: citiesNamedBy(text).slice(0, 3),
  };
}

/**
 * The FTS5 query for what was typed: every word of three or more characters (as a quoted string, so
 * nothing typed is FTS syntax), OR the categories it names, OR the cities whose aliases it names.
 * Undefined when there is nothing searchable.
 */
export function matchExpression(q: string): string | undefined {
  const words = words3(q);
  const alternatives: string[] = [];
  if (words.length > 0) alternatives.push(words.map(quote).join(' AND '));
  for (const category of categoriesNamedBy(q)) alternatives.push(`category : ${quote(category)}`);
  for (const city of citiesNamedBy(q)) alternatives.push(`city : ${quote(city)}`);
  return alternatives.length > 0 ? alternatives.map((a) => `(${a})`).join(' OR ') : undefined;
}

function quote(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/**
 * Nothing matched as typed: look for events with words that share trigrams with each typed word, and
 * keep those where every typed word has a close enough word (trigram similarity ≥ FUZZY_THRESHOLD),
 * closest first. Bounded by FUZZY_CANDIDATES whatever the catalogue's size.
 */
function fuzzySearch(db: Db, instant: string, q: string): EventSummary[] {
  const typed = fuzzyWords(q);
  if (typed.length === 0) return [];
  const grams = new Set(typed.flatMap((w) => innerTrigrams(w)));
  const expression = `{name artists venue} : (${[...grams].map(quote).join(' OR ')})`;
  const candidates = db.$client
    .prepare(
      `select ${SUMMARY_COLUMNS}, s.name as doc_name, s.artists as doc_artists, s.venue as doc_venue
       from event_search s
       join event_search_keys k on k.doc_id = s.rowid
       join events e on e.id = k.event_id
       where event_search match ? and e.status = 'published' and e.last_ends_at >= ?
       order by s.rank limit ?`,
    )
    .all(expression, instant, FUZZY_CANDIDATES) as FuzzyCandidate[];
  return closestSpellings(candidates, typed);
}
