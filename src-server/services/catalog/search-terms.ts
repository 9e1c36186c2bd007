import { CATALOG_COUNT_CAP } from '../../../shared/catalog-schemas.ts';
import { CATEGORY_LABELS, type EventCategory } from '../../../shared/categories.ts';
import { CITIES } from '../../../shared/cities.ts';
import { badRequest } from '../../errors.ts';
import { type EventPage, INVALID_CURSOR, type SummaryRow, toSummary } from './event-pages.ts';
import type { EventSummary } from './event-summary.ts';

/**
 * What a search query means, whichever engine answers it (search-events.ts on SQLite's FTS5,
 * search-events-pg.ts on PostgreSQL): the words searched, the categories and cities it names through
 * synonyms and aliases, how misspellings are scored, and the opaque page position. Both engines read
 * the query through these functions, so they expand it the same way.
 */

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
export const FUZZY_CANDIDATES = 200;
/** How alike (trigram similarity, 0–1) a typed word and a catalogue word must be to count as a misspelling. */
const FUZZY_THRESHOLD = 0.4;

export interface SearchPage extends EventPage {
  /** True when nothing matched as typed and these are the closest spellings' results. */
  approximate: boolean;
}

/** The list a query names outright: a category (or one of its words) or a city (or one of its aliases). */
export function listNamedBy(q: string): { category: EventCategory } | { city: string } | undefined {
  const text = squash(q);
  if (!text) return undefined;
  const category = (Object.keys(CATEGORY_SYNONYMS) as EventCategory[]).find((c) =>
    [...CATEGORY_SYNONYMS[c], squash(CATEGORY_LABELS[c])].includes(text),
  );
  if (category) return { category };
  const city = CITIES.find((c) => [c.name, ...c.aliases].some((n) => squash(n) === text));
  return city ? { city: city.name } : undefined;
}

/** The typed words that are searched: three characters or more, lower case. */
export function words3(q: string): string[] {
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => [...w].length >= MIN_WORD);
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
export function citiesNamedBy(q: string): string[] {
  const text = q.trim().toLowerCase();
  if ([...text].length < MIN_WORD) return [];
  return CITIES.filter(
    (c) => c.name.toLowerCase().includes(text) || c.aliases.some((a) => a.toLowerCase().includes(text)),
  ).map((c) => c.name);
}

/** The typed words a misspelling is looked for: four characters or more (shorter ones are too vague). */
export function fuzzyWords(q: string): string[] {
  return words3(q).filter((w) => [...w].length >= 4);
}

/** A candidate for approximate matching: its card's row and the words of its document. */
export type FuzzyCandidate = SummaryRow & { doc_name: string; doc_artists: string; doc_venue: string };

/**
 * Of the candidates (events sharing trigrams with the typed words), those where every typed word has a
 * close enough word (trigram similarity ≥ FUZZY_THRESHOLD), closest first, then soonest.
 */
export function closestSpellings(candidates: FuzzyCandidate[], typed: string[]): EventSummary[] {
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
export function innerTrigrams(word: string): string[] {
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
export function fuzzyPage(all: EventSummary[], offset: number, limit: number): SearchPage {
  return {
    items: all.slice(offset, offset + limit),
    nextCursor: all.length > offset + limit ? encodePosition({ kind: 'f', offset: offset + limit }) : null,
    total: offset === 0 ? all.length : null,
    totalIsCapped: false,
    approximate: true,
  };
}

export type Position =
  | { kind: 'o'; offset: number }
  | { kind: 'f'; offset: number }
  | { kind: 'l'; cursor: string };

/** Where the next page starts: in the ranking ('o'), in the approximate matches ('f') or in a list ('l'). */
export function encodePosition(position: Position): string {
  const value = position.kind === 'l' ? position.cursor : String(position.offset);
  return Buffer.from(`${position.kind}${value}`).toString('base64url');
}

export function decodePosition(cursor: string): Position {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (text.startsWith('l') && text.length > 1) return { kind: 'l', cursor: text.slice(1) };
  const match = /^([fo])(\d{1,5})$/.exec(text);
  const offset = match ? Number(match[2]) : Number.NaN;
  if (!match || offset > CATALOG_COUNT_CAP) throw badRequest(INVALID_CURSOR);
  return { kind: match[1] as 'f' | 'o', offset };
}
