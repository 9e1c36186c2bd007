import {
  CATALOG_COUNT_CAP,
  CATALOG_PAGE_SIZE,
  type EventSearchPageInput,
} from '../../../shared/catalog-schemas.ts';
import { CATEGORY_LABELS, type EventCategory } from '../../../shared/categories.ts';
import { CITIES } from '../../../shared/cities.ts';
import type { Db } from '../../db/client.ts';
import { inOneRead } from '../../db/one-read.ts';
import { badRequest } from '../../errors.ts';
import {
  type EventPage,
  INVALID_CURSOR,
  pageEvents,
  SUMMARY_COLUMNS,
  type SummaryRow,
  toSummary,
} from './event-pages.ts';
import type { EventSummary } from './event-summary.ts';

/**
 * Words people type for a category (compared without spaces, hyphens or case). A query that is one of
 * them, or the start of one (four letters or more), also finds every event of that category.
 */
export const CATEGORY_SYNONYMS: Record<EventCategory, string[]> = {
  comedy: ['comedy', 'standup', 'standupcomedy', 'comic', 'comedian', 'openmic', 'improv', 'funny'],
  concerts: ['concert', 'concerts', 'gig', 'gigs', 'music', 'livemusic', 'band', 'dj', 'singer', 'festival'],
  sports: ['sport', 'sports', 'match', 'cricket', 'football', 'marathon', 'run', 'kabaddi', 'tennis'],
  shows: ['show', 'shows', 'theatre', 'theater', 'play', 'drama', 'musical', 'dance', 'magic'],
  workshops: ['workshop', 'workshops', 'class', 'masterclass', 'course', 'learn', 'pottery', 'painting'],
  others: ['others', 'other'],
};

/** Under this many characters a word cannot be searched: the trigram index matches three or more. */
const MIN_WORD = 3;
/** Candidates examined when nothing matches exactly and misspellings are tried. */
const FUZZY_CANDIDATES = 200;
/** How alike (trigram similarity, 0–1) a typed word and a catalogue word must be to count as a misspelling. */
const FUZZY_THRESHOLD = 0.4;

export interface SearchPage extends EventPage {
  /** True when nothing matched as typed and these are the closest spellings' results. */
  approximate: boolean;
}

/**
 * Ranked search over published upcoming events (name, artists, venue, city, category) from the
 * `event_search` FTS5 index (trigram tokenizer: any part of a word, any case): best match first
 * (bm25, name and artists weigh most), then soonest. Category synonyms and city aliases widen the
 * query. When nothing matches as typed, words are matched by trigram similarity instead, so "arjit"
 * finds Arijit. Paginated by position; the count is given on the first page, up to CATALOG_COUNT_CAP.
 * All of a page's reads are one read transaction.
 */
export function searchEventPage(db: Db, now: Date, input: EventSearchPageInput): SearchPage {
  return inOneRead(db, () => readSearchPage(db, now, input));
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

/** The list a query names outright: a category (or one of its words) or a city (or one of its aliases). */
function listNamedBy(q: string): { category: EventCategory } | { city: string } | undefined {
  const text = squash(q);
  if (!text) return undefined;
  const category = (Object.keys(CATEGORY_SYNONYMS) as EventCategory[]).find((c) =>
    [...CATEGORY_SYNONYMS[c], squash(CATEGORY_LABELS[c])].includes(text),
  );
  if (category) return { category };
  const city = CITIES.find((c) => [c.name, ...c.aliases].some((n) => squash(n) === text));
  return city ? { city: city.name } : undefined;
}

export interface Suggestions {
  events: { id: string; name: string; city: string }[];
  categories: EventCategory[];
  cities: string[];
}

/** Typeahead: a few best-matching events, and the categories and cities the text names. */
export function suggestEvents(db: Db, now: Date, q: string): Suggestions {
  const text = q.trim();
  const page = searchEventPage(db, now, { q: text, limit: 5 });
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

function words3(q: string): string[] {
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => [...w].length >= MIN_WORD);
}

function quote(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

export function categoriesNamedBy(q: string): EventCategory[] {
  const text = squash(q);
  if (text.length < MIN_WORD) return [];
  return (Object.keys(CATEGORY_SYNONYMS) as EventCategory[]).filter((category) =>
    [...CATEGORY_SYNONYMS[category], squash(CATEGORY_LABELS[category])].some(
      (word) => word === text || (text.length >= 4 && word.startsWith(text)),
    ),
  );
}

/** Cities an alias of which contains the text ('bangalore' → Bengaluru); the name itself is indexed. */
function citiesNamedBy(q: string): string[] {
  const text = q.trim().toLowerCase();
  if ([...text].length < MIN_WORD) return [];
  return CITIES.filter(
    (c) => c.name.toLowerCase().includes(text) || c.aliases.some((a) => a.toLowerCase().includes(text)),
  ).map((c) => c.name);
}

/**
 * Nothing matched as typed: look for events with words that share trigrams with each typed word, and
 * keep those where every typed word has a close enough word (trigram similarity ≥ FUZZY_THRESHOLD),
 * closest first. Bounded by FUZZY_CANDIDATES whatever the catalogue's size.
 */
function fuzzySearch(db: Db, instant: string, q: string): EventSummary[] {
  const typed = words3(q).filter((w) => [...w].length >= 4);
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
    .all(expression, instant, FUZZY_CANDIDATES) as (SummaryRow & {
    doc_name: string;
    doc_artists: string;
    doc_venue: string;
  })[];
  const scored: { row: SummaryRow; score: number }[] = [];
  for (const row of candidates) {
    const docWords = `${row.doc_name} ${row.doc_artists} ${row.doc_venue}`
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    let score = 0;
    for (const word of typed) {
      const best = Math.max(0, ...docWords.map((d) => similarity(word, d)));
      if (best < FUZZY_THRESHOLD) {
        score = -1;
        break;
      }
      score += best;
    }
    if (score > 0) scored.push({ row, score });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.row.start_time.localeCompare(b.row.start_time))
    .map((s) => toSummary(s.row));
}

/** The word's own trigrams (what the index holds), for finding candidates. */
function innerTrigrams(word: string): string[] {
  const chars = [...word];
  const grams: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i += 1) grams.push(chars.slice(i, i + 3).join(''));
  return grams;
}

/** Trigram similarity of two words with padded ends (as pg_trgm): shared ÷ all distinct trigrams. */
export function similarity(a: string, b: string): number {
  const ga = new Set(innerTrigrams(`  ${a} `));
  const gb = new Set(innerTrigrams(`  ${b} `));
  let shared = 0;
  for (const g of ga) if (gb.has(g)) shared += 1;
  return shared / (ga.size + gb.size - shared);
}

/** A page of the (short, bounded) list of approximate matches; the same list is found again for the next. */
function fuzzyPage(all: EventSummary[], offset: number, limit: number): SearchPage {
  return {
    items: all.slice(offset, offset + limit),
    nextCursor: all.length > offset + limit ? encodePosition({ kind: 'f', offset: offset + limit }) : null,
    total: offset === 0 ? all.length : null,
    totalIsCapped: false,
    approximate: true,
  };
}

type Position = { kind: 'o'; offset: number } | { kind: 'f'; offset: number } | { kind: 'l'; cursor: string };

/** Where the next page starts: in the ranking ('o'), in the approximate matches ('f') or in a list ('l'). */
function encodePosition(position: Position): string {
  const value = position.kind === 'l' ? position.cursor : String(position.offset);
  return Buffer.from(`${position.kind}${value}`).toString('base64url');
}

function decodePosition(cursor: string): Position {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (text.startsWith('l') && text.length > 1) return { kind: 'l', cursor: text.slice(1) };
  const match = /^([fo])(\d{1,5})$/.exec(text);
  const offset = match ? Number(match[2]) : Number.NaN;
  if (!match || offset > CATALOG_COUNT_CAP) throw badRequest(INVALID_CURSOR);
  return { kind: match[1] as 'f' | 'o', offset };
}
