import { type SQL, sql } from 'drizzle-orm';
import {
  CATALOG_COUNT_CAP,
  CATALOG_PAGE_SIZE,
  type EventSearchPageInput,
} from '../../../shared/catalog-schemas.ts';
import type { EventCategory } from '../../../shared/categories.ts';
import { type PgDb, pgReadSnapshot } from '../../db/engine/postgres.ts';
import { escapeLike } from '../../db/like.ts';
import { decodeListCursor, encodeListCursor, type SummaryRow, toSummary } from './event-pages.ts';
import type { EventSummary } from './event-summary.ts';
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
 * `searchEventPage` on PostgreSQL (ADR 0035, "Search"): the same answers as SQLite's FTS5 index for
 * the same query, expanded by the same code (search-terms.ts). A word matches any part of a word in
 * any field, in any case (`ILIKE '%word%'`, answered by the pg_trgm indexes, as FTS5's trigram
 * tokenizer matches any three letters); typos fall back to the same trigram similarity of words; the
 * ranking weighs the name and the artists most, then the venue, then city and category (`ts_rank` on
 * the weighted tsvector for whole and prefix words, plus pg_trgm's `word_similarity` for parts of
 * words), ties soonest first. All of a page's reads are one read-only snapshot.
 */
export function searchEventPageOnPostgres(
  db: PgDb,
  now: Date,
  input: EventSearchPageInput,
): Promise<SearchPage> {
  return pgReadSnapshot(db, (tx) => readSearchPage(tx, now, input));
}

/** What the reads need of the database or its transaction. */
interface Session {
  execute(query: SQL): PromiseLike<{ rows: unknown[] }>;
}

async function readSearchPage(db: Session, now: Date, input: EventSearchPageInput): Promise<SearchPage> {
  const limit = input.limit ?? CATALOG_PAGE_SIZE;
  const position = input.cursor ? decodePosition(input.cursor) : ({ kind: 'o', offset: 0 } as const);
  const instant = now.toISOString();

  // As on SQLite: a query that is a category or a city is that list, soonest first.
  const list = listNamedBy(input.q);
  if (list) {
    return listPage(db, instant, list, limit, position.kind === 'l' ? position.cursor : undefined);
  }

  const match = matchCondition(input.q);
  if (!match) return { items: [], nextCursor: null, total: 0, totalIsCapped: false, approximate: false };
  if (position.kind === 'f')
    return fuzzyPage(await fuzzySearch(db, instant, input.q), position.offset, limit);
  const offset = position.kind === 'o' ? position.offset : 0;

  const found = sql`from event_search s join events e on e.id = s.event_id
    where e.status = 'published' and e.last_ends_at >= ${instant} and ${match}`;
  const rows = (
    await db.execute(sql`select ${SUMMARY_COLUMNS} ${found}
      order by ${rankOf(input.q)} desc, e.start_time collate "C", e.id collate "C"
      limit ${limit + 1} offset ${offset}`)
  ).rows as SummaryRow[];
  const items = rows.slice(0, limit).map(toSummary);
  if (items.length === 0 && offset === 0) {
    const fuzzy = await fuzzySearch(db, instant, input.q);
    if (fuzzy.length > 0) return fuzzyPage(fuzzy, 0, limit);
  }
  const more = rows.length > limit;
  let total: number | null = null;
  let totalIsCapped = false;
  if (offset === 0) {
    total = more ? await countUpToCap(db, found) : items.length;
    totalIsCapped = total > CATALOG_COUNT_CAP;
    if (totalIsCapped) total = CATALOG_COUNT_CAP;
  }
  const nextOffset = offset + limit;
  return {
    items,
    nextCursor:
      more && nextOffset < CATALOG_COUNT_CAP ? encodePosition({ kind: 'o', offset: nextOffset }) : null,
    total,
    totalIsCapped,
    approximate: false,
  };
}

/**
 * The columns an event card shows, as `toSummary` reads them (event-pages.ts's SUMMARY_COLUMNS on
 * PostgreSQL's types: jsonb images as text, bigint paise as a number, the GST flag as 0 or 1).
 */
const SUMMARY_COLUMNS = sql.raw(`e.id, e.name, e.category, e.city, e.poster_url,
  e.images_urls::text as images_urls, e.start_time, e.end_time, e.event_location_text,
  e.lowest_price_paise::float8 as lowest_price_paise,
  coalesce((select (p.gstin is not null and not coalesce(e.tax_inclusive, p.tax_inclusive))::int
    from organiser_profiles p where p.user_id = e.owner_id), 0) as prices_plus_gst`);

/**
 * The FTS5 expression of search-events.ts's `matchExpression`, as a condition on `event_search s`:
 * every word somewhere in the document (any field), OR a category it names, OR a city it names.
 */
function matchCondition(q: string): SQL | undefined {
  const words = words3(q);
  const alternatives: SQL[] = [];
  if (words.length > 0) alternatives.push(sql.join(words.map(inAnyField), sql` and `));
  for (const category of categoriesNamedBy(q)) alternatives.push(contains(sql`s.category`, category));
  for (const city of citiesNamedBy(q)) alternatives.push(contains(sql`s.city`, city));
  if (alternatives.length === 0) return undefined;
  return sql`(${sql.join(
    alternatives.map((a) => sql`(${a})`),
    sql` or `,
  )})`;
}

function inAnyField(word: string): SQL {
  const fields = [sql`s.name`, sql`s.artists`, sql`s.venue`, sql`s.city`, sql`s.category`];
  return sql`(${sql.join(
    fields.map((field) => contains(field, word)),
    sql` or `,
  )})`;
}

/** Any part of the field, in any case: FTS5's trigram phrase match (backslash escapes what was typed). */
function contains(field: SQL, text: string): SQL {
  return sql`${field} ilike ${`%${escapeLike(text)}%`}`;
}

/**
 * Best match first, as FTS5's bm25(10, 8, 3, 2, 2): whole and prefix words ranked on the weighted
 * tsvector (A name and artists, B venue, C city and category; divided by 1 + the log of the document's
 * length, as bm25 prefers the shorter of two documents that match alike), plus how closely the typed
 * text matches the name, the artists or the venue (pg_trgm: how much of the text is in the field, and
 * how much of the field the text is, so parts of words rank too and shorter fields first), in bm25's
 * proportions.
 */
function rankOf(q: string): SQL {
  const words = words3(q);
  const tokens = words.flatMap((w) => w.split(/[^\p{L}\p{N}]+/u)).filter(Boolean);
  const text = words.join(' ');
  const ranked =
    tokens.length > 0
      ? sql`ts_rank('{0.2, 0.2, 0.3, 1.0}', s.document, to_tsquery('simple', ${tokens.map((t) => `${t}:*`).join(' | ')}), 1)`
      : sql`0`;
  if (!text) return ranked;
  const close = (field: SQL) => sql`(word_similarity(${text}, ${field}) + similarity(${text}, ${field}))`;
  return sql`(${ranked} + ${close(sql`s.name`)} + 0.8 * ${close(sql`s.artists`)} + 0.3 * ${close(sql`s.venue`)})`;
}

async function countUpToCap(db: Session, found: SQL): Promise<number> {
  const { rows } = await db.execute(
    sql`select count(*)::int as n from (select 1 ${found} limit ${CATALOG_COUNT_CAP + 1}) c`,
  );
  return (rows[0] as { n: number }).n;
}

/**
 * A category's or a city's upcoming events, soonest first, as event-pages.ts's `pageEvents` (the same
 * order, cursor and count). Text is ordered by its bytes (`collate "C"`), as SQLite orders it, so a
 * list's order and its cursors do not depend on the database's locale.
 */
async function listPage(
  db: Session,
  instant: string,
  list: { category: EventCategory } | { city: string },
  limit: number,
  cursor: string | undefined,
): Promise<SearchPage> {
  const filter = sql`e.status = 'published' and e.last_ends_at >= ${instant} and ${
    'category' in list ? sql`e.category = ${list.category}` : sql`e.city = ${list.city}`
  }`;
  let after = sql``;
  if (cursor) {
    const [start, name, id] = decodeListCursor(cursor);
    after = sql` and (e.start_time collate "C", e.name collate "C", e.id collate "C") > (${start}, ${name}, ${id})`;
  }
  const rows = (
    await db.execute(sql`select ${SUMMARY_COLUMNS} from events e where ${filter}${after}
      order by e.start_time collate "C", e.name collate "C", e.id collate "C" limit ${limit + 1}`)
  ).rows as SummaryRow[];
  const items = rows.slice(0, limit).map(toSummary);
  const last = items.at(-1);
  const more = rows.length > limit;
  let total: number | null = null;
  let totalIsCapped = false;
  if (!cursor) {
    total = more ? await countUpToCap(db, sql`from events e where ${filter}`) : items.length;
    totalIsCapped = total > CATALOG_COUNT_CAP;
    if (totalIsCapped) total = CATALOG_COUNT_CAP;
  }
  return {
    items,
    nextCursor: more && last ? encodePosition({ kind: 'l', cursor: encodeListCursor(last) }) : null,
    total,
    totalIsCapped,
    approximate: false,
  };
}

/**
 * Nothing matched as typed: as on SQLite, events whose name, artists or venue share a trigram with a
 * typed word are the candidates (at most FUZZY_CANDIDATES, the most alike first), and the same scoring
 * (search-terms.ts `closestSpellings`) keeps and orders them.
 */
async function fuzzySearch(db: Session, instant: string, q: string): Promise<EventSummary[]> {
  const typed = fuzzyWords(q);
  if (typed.length === 0) return [];
  const grams = [...new Set(typed.flatMap((w) => innerTrigrams(w)))];
  const anyGram = sql.join(
    grams.map(
      (g) =>
        sql`(${sql.join([contains(sql`s.name`, g), contains(sql`s.artists`, g), contains(sql`s.venue`, g)], sql` or `)})`,
    ),
    sql` or `,
  );
  const text = typed.join(' ');
  const { rows } = await db.execute(sql`
    select ${SUMMARY_COLUMNS}, s.name as doc_name, s.artists as doc_artists, s.venue as doc_venue
    from event_search s join events e on e.id = s.event_id
    where e.status = 'published' and e.last_ends_at >= ${instant} and (${anyGram})
    order by greatest(word_similarity(${text}, s.name), word_similarity(${text}, s.artists),
      word_similarity(${text}, s.venue)) desc, e.start_time collate "C", e.id collate "C"
    limit ${FUZZY_CANDIDATES}`);
  return closestSpellings(rows as FuzzyCandidate[], typed);
}
