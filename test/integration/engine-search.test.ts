import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src-server/db/client.ts';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { dropEndedFromSearch } from '../../src-server/services/catalog/drop-ended-from-search.ts';
import { refreshEventSearchOnPostgres } from '../../src-server/services/catalog/event-search-pg.ts';
import { refreshEventListing } from '../../src-server/services/catalog/refresh-event-listing.ts';
import { searchEventPage } from '../../src-server/services/catalog/search-events.ts';
import type { SearchPage } from '../../src-server/services/catalog/search-terms.ts';
import { freshPostgresDatabase, testPostgresUrl } from '../helpers/test-postgres.ts';

// ADR 0035, "Search": the catalogue's search service answers from SQLite's FTS5 index or from
// PostgreSQL's tsvector and pg_trgm indexes, whichever database it is given, and the same cases prove
// both give the same events in the same order: partial words, typos, synonyms, city aliases, ranking,
// only published upcoming events, paging.

interface Engine {
  /** The database as the composition root opened it (SQLite's Db or PostgreSQL's PgDb). */
  db: object;
  search: (q: string, options?: { cursor?: string | null; limit?: number }) => Promise<SearchPage>;
  /** The service step that keeps the event's search document in step with it, on this engine. */
  index: (eventId: string) => Promise<void>;
  close: () => Promise<void>;
}

const NOW = new Date('2026-12-01T10:00:00.000Z');
const serverUrl = testPostgresUrl('engine-search.test.ts');

const engines: [string, () => Promise<Engine>][] = [
  [
    'SQLite',
    async () => {
      const handle = openDatabase(':memory:');
      const db = handle.db;
      return {
        db,
        search: async (q, { cursor, limit } = {}) =>
          searchEventPage(db, NOW, { q, ...(limit && { limit }), ...(cursor && { cursor }) }),
        index: async (eventId) => refreshEventListing(db, eventId),
        close: async () => handle.close(),
      };
    },
  ],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const fresh = await freshPostgresDatabase(serverUrl, { poolSize: 4 });
      const db: PgDb = fresh.db;
      return {
        db,
        search: (q, { cursor, limit } = {}) =>
          searchEventPage(db, NOW, { q, ...(limit && { limit }), ...(cursor && { cursor }) }),
        index: (eventId) => refreshEventSearchOnPostgres(db, eventId),
        close: fresh.drop,
      };
    },
  ]);
}

interface Seeded {
  id: string;
  name: string;
  artists: string[];
  venue: string;
  city: string;
  category: 'comedy' | 'concerts' | 'sports' | 'shows' | 'workshops' | 'others';
  /** Days from NOW it starts (negative: in the past); it lasts three hours. */
  inDays: number;
  status?: 'published' | 'draft';
}

const at = (days: number, hours = 0) =>
  new Date(NOW.getTime() + days * 86_400_000 + hours * 3_600_000).toISOString();

/**
 * The catalogue, published in order of start (so FTS5's documents, numbered in publication order, tie
 * as PostgreSQL's ties do: soonest first).
 */
const CATALOGUE: Seeded[] = [
  {
    id: 'ended',
    name: 'Sunburn Classic',
    artists: ['Nucleya'],
    venue: 'Vagator Beach',
    city: 'Goa',
    category: 'concerts',
    inDays: -10,
  },
  {
    id: 'poetry',
    name: 'Poetry Evening',
    artists: ['Various Poets'],
    venue: 'Sunburn Cafe',
    city: 'Pune',
    category: 'shows',
    inDays: 3,
  },
  {
    id: 'kenny',
    name: 'Kenny Sebastian Live',
    artists: ['Kenny Sebastian'],
    venue: 'Phoenix Marketcity',
    city: 'Bengaluru',
    category: 'comedy',
    inDays: 5,
  },
  {
    id: 'draft',
    name: 'Sunburn Secret Show',
    artists: ['Martin Garrix'],
    venue: 'Vagator Beach',
    city: 'Goa',
    category: 'concerts',
    inDays: 7,
    status: 'draft',
  },
  {
    id: 'arijit',
    name: 'Arijit Singh Live',
    artists: ['Arijit Singh'],
    venue: 'Jio World Garden',
    city: 'Mumbai',
    category: 'concerts',
    inDays: 10,
  },
  {
    id: 'sunburn',
    name: 'Sunburn Goa',
    artists: ['Martin Garrix'],
    venue: 'Vagator Beach',
    city: 'Goa',
    category: 'concerts',
    inDays: 20,
  },
  ...[1, 2, 3, 4, 5].map(
    (n): Seeded => ({
      id: `market-${n}`,
      name: `Night Market ${n}`,
      artists: ['Stall Owners'],
      venue: 'Town Hall',
      city: 'Jaipur',
      category: 'others',
      inDays: 29 + n,
    }),
  ),
];

/** Inserts the event and its artists through Drizzle with the engine's own tables, then indexes it. */
async function seed(engine: Engine, event: Seeded): Promise<void> {
  const { events, artists } = tablesOf(engine.db);
  const db = engine.db as Db;
  await db.insert(events).values({
    id: event.id,
    name: event.name,
    category: event.category,
    city: event.city,
    startTime: at(event.inDays),
    endTime: at(event.inDays, 3),
    lastEndsAt: at(event.inDays, 3),
    eventLocationText: event.venue,
    status: event.status ?? 'published',
    createdAt: at(-30),
  });
  for (const [position, name] of event.artists.entries()) {
    await db.insert(artists).values({ eventId: event.id, name, position });
  }
  await engine.index(event.id);
}

const ids = (page: SearchPage) => page.items.map((e) => e.id);

describe.each(engines)('catalogue search on %s', (_name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
    for (const event of CATALOGUE) await seed(engine, event);
  }, 30_000);
  afterAll(() => engine?.close());

  it('ranks a name match above a venue match, and never finds a draft or an ended event', async () => {
    const page = await engine.search('sunburn');
    expect(ids(page)).toEqual(['sunburn', 'poetry']);
    expect(page).toMatchObject({ total: 2, totalIsCapped: false, approximate: false, nextCursor: null });
    // The card is the same on both engines (types read back as SQLite gives them).
    expect(page.items[0]).toEqual({
      id: 'sunburn',
      name: 'Sunburn Goa',
      category: 'concerts',
      city: 'Goa',
      posterUrl: null,
      imageUrl: null,
      startTime: at(20),
      endTime: at(20, 3),
      eventLocationText: 'Vagator Beach',
      lowestPricePaise: null,
      pricesPlusGst: false,
    });
  });

  it('finds part of a word, inside a word too, in any case', async () => {
    expect(ids(await engine.search('UNBUR'))).toEqual(['sunburn', 'poetry']);
    expect(ids(await engine.search('ebasti'))).toEqual(['kenny']);
    expect(ids(await engine.search('arijit liv'))).toEqual(['arijit']);
  });

  it('finds a word misspelt by a letter, and says the results are approximate', async () => {
    const arjit = await engine.search('arjit');
    expect(ids(arjit)).toEqual(['arijit']);
    expect(arjit.approximate).toBe(true);
    const kenni = await engine.search('kenni');
    expect(ids(kenni)).toEqual(['kenny']);
    expect(kenni.approximate).toBe(true);
    expect(ids(await engine.search('zzzzqq'))).toEqual([]);
  });

  it('finds a category by another word: as a list, soonest first, and inside a ranked search', async () => {
    expect(ids(await engine.search('stand-up'))).toEqual(['kenny']);
    expect(ids(await engine.search('gig'))).toEqual(['arijit', 'sunburn']);
    // 'stand' is no list, but the start of 'standup': comedy widens the ranked search.
    expect(ids(await engine.search('stand'))).toEqual(['kenny']);
  });

  it('finds a city by its old name: as a list, and by part of the alias in a ranked search', async () => {
    expect(ids(await engine.search('Bangalore'))).toEqual(['kenny']);
    expect(ids(await engine.search('Bombay'))).toEqual(['arijit']);
    expect(ids(await engine.search('bangal'))).toEqual(['kenny']);
  });

  it('pages ranked results and lists without repeating or skipping an event, the count on the first page', async () => {
    const seen: string[] = [];
    const totals: (number | null)[] = [];
    let cursor: string | null = null;
    do {
      const page: SearchPage = await engine.search('night market', { cursor, limit: 2 });
      seen.push(...ids(page));
      totals.push(page.total);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['market-1', 'market-2', 'market-3', 'market-4', 'market-5']);
    expect(totals).toEqual([5, null, null]);

    const listed: string[] = [];
    cursor = null;
    do {
      const page: SearchPage = await engine.search('Jaipur', { cursor, limit: 3 });
      listed.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(listed).toEqual(['market-1', 'market-2', 'market-3', 'market-4', 'market-5']);
  });

  it('keeps the index in step with the event: published is found, taken back to draft is not, ended is dropped', async () => {
    const { events } = tablesOf(engine.db);
    const db = engine.db as Db;
    await db.update(events).set({ status: 'published' }).where(eq(events.id, 'draft'));
    await engine.index('draft');
    expect(ids(await engine.search('sunburn'))).toEqual(['sunburn', 'draft', 'poetry']);
    expect(ids(await engine.search('unburn'))).toEqual(['sunburn', 'draft', 'poetry']);
    expect(ids(await engine.search('garrix'))).toEqual(['sunburn', 'draft']);
    await db.update(events).set({ status: 'draft' }).where(eq(events.id, 'draft'));
    await engine.index('draft');
    expect(ids(await engine.search('sunburn'))).toEqual(['sunburn', 'poetry']);

    // The ended event's document is taken out by the cleanup job, on either engine.
    expect(await dropEndedFromSearch(engine.db as never, NOW)).toBe(1);
    expect(await dropEndedFromSearch(engine.db as never, NOW)).toBe(0);
  });
});
