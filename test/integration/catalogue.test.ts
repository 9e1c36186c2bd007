import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_COUNT_CAP } from '../../shared/catalog-schemas.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { similarity } from '../../src-server/services/catalog/search-terms.ts';
import { account } from '../helpers/engine-fixtures.ts';
import { eventReadsDuring } from '../helpers/event-reads.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { insertLargeCatalogue, removeLargeCatalogue } from '../helpers/large-catalogue.ts';
import { createTestApp, createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

interface Summary {
  id: string;
  name: string;
  city: string;
  category: string;
  startTime: string;
  lowestPricePaise: number | null;
}
interface Page {
  items: Summary[];
  nextCursor: string | null;
  total: number | null;
  totalIsCapped: boolean;
  approximate?: boolean;
}

const LARGE = 3000;

// SQLite only: the large catalogue is written with SQLite's own statements into its FTS5 index
// (large-catalogue.ts), and the plans checked are SQLite's EXPLAIN QUERY PLAN. PostgreSQL's catalogue
// reads and search are proved in engine-catalog-reads.test.ts and engine-search.test.ts.
describe.runIf(testEngine() === 'sqlite')('a large catalogue (issue 25)', () => {
  let t: TestApp;
  beforeAll(() => {
    t = createTestApp({ SEED_DEMO_DATA: 'false' });
    insertLargeCatalogue(t.deps.db, LARGE, { now: t.clock.now() });
    // Statistics, as a running installation has them (the database runs `PRAGMA optimize` when it
    // closes): the planner's choices with them are the ones production makes.
    t.deps.sqlite.exec('ANALYZE');
  }, 120_000);
  afterAll(() => t.close());

  const query = async <T>(name: string, input: unknown) => {
    const res = await callProcedure(t, 'query', name, input);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.data as T;
  };

  it('pages through one city soonest first, every event exactly once, with the count on the first page', async () => {
    const seen: Summary[] = [];
    let cursor: string | null = null;
    let first: Page | undefined;
    do {
      const page: Page = await query<Page>('events.page', {
        city: 'Pune',
        limit: 20,
        ...(cursor && { cursor }),
      });
      first ??= page;
      if (page !== first) expect(page.total).toBeNull();
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    const expected = t.deps.sqlite
      .prepare("select count(*) from events where city = 'Pune' and status = 'published'")
      .pluck()
      .get() as number;
    expect(expected).toBeGreaterThan(40);
    expect(first?.total).toBe(expected);
    expect(new Set(seen.map((e) => e.id)).size).toBe(expected);
    expect(seen.every((e) => e.city === 'Pune')).toBe(true);
    const order = seen.map((e) => `${e.startTime}|${e.name}|${e.id}`);
    expect(order).toEqual([...order].sort());
  });

  it('counts a big list up to the cap and says so; another city is left out of "everyone else"', async () => {
    const all = await query<Page>('events.page', {});
    expect(all).toMatchObject({ total: CATALOG_COUNT_CAP, totalIsCapped: true });
    expect(all.items).toHaveLength(24);
    const others = await query<Page>('events.page', { exceptCity: 'Pune', limit: 48 });
    expect(others.items.some((e) => e.city === 'Pune')).toBe(false);
  });

  it('answers the home page in a few KB whatever the size, with the lowest price of every card', async () => {
    const res = await callProcedure(t, 'query', 'events.home', { city: 'Bombay' });
    expect(JSON.stringify(res.body).length).toBeLessThan(12_000);
    const home = res.data as { city: string; near: Page; others: Page };
    expect(home.city).toBe('Mumbai');
    expect(home.near.items.every((e) => e.city === 'Mumbai')).toBe(true);
    expect(home.others.items.length).toBeGreaterThan(0);
    const card = home.near.items[0]!;
    const min = t.deps.sqlite
      .prepare(
        `select min(tt.price_paise) from ticket_types tt join slots s on s.id = tt.slot_id
         join event_dates d on d.id = s.event_date_id where d.event_id = ?`,
      )
      .pluck()
      .get(card.id);
    expect(card.lowestPricePaise).toBe(min);
  });

  it('finds a misspelt artist, a category by another word and a city by its old name', async () => {
    const arjit = await query<Page>('events.searchPage', { q: 'arjit' });
    expect(arjit.approximate).toBe(true);
    expect(arjit.items.length).toBeGreaterThan(0);
    expect(arjit.items.every((e) => e.name.startsWith('Arijit Singh'))).toBe(true);
    const exact = await query<Page>('events.searchPage', { q: 'Arijit' });
    expect(exact.approximate).toBe(false);
    expect(exact.items[0]!.name).toContain('Arijit');

    const standUp = await query<Page>('events.searchPage', { q: 'stand-up' });
    expect(standUp.items.length).toBe(24);
    expect(standUp.items.every((e) => e.category === 'comedy')).toBe(true);
    const next = await query<Page>('events.searchPage', { q: 'stand-up', cursor: standUp.nextCursor });
    expect(next.items[0]!.id).not.toBe(standUp.items[0]!.id);

    const bangalore = await query<Page>('events.searchPage', { q: 'Bangalore' });
    expect(bangalore.items.every((e) => e.city === 'Bengaluru')).toBe(true);

    const suggest = await query<{ events: { name: string }[]; categories: string[] }>('events.suggest', {
      q: 'zakir',
    });
    expect(suggest.events[0]!.name).toContain('Zakir Khan');
    expect((await query<{ categories: string[] }>('events.suggest', { q: 'standup' })).categories).toEqual([
      'comedy',
    ]);
    expect(similarity('arjit', 'arijit')).toBeGreaterThan(0.4);
  });

  it('pages ranked search results without repeating an event', async () => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3; i += 1) {
      const page: Page = await query<Page>('events.searchPage', {
        q: 'kenny',
        limit: 10,
        ...(cursor && { cursor }),
      });
      ids.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads the catalogue through indexes: no scan of events or ticket types, no temporary B-tree for a list', async () => {
    const compiled = recordStatements(t.deps.sqlite);
    const first = await query<Page>('events.page', { category: 'comedy' });
    for (const [name, input] of [
      ['events.home', { city: 'Pune' }],
      ['events.home', { city: 'Shimla' }],
      ['events.page', { city: 'Pune' }],
      ['events.page', { city: 'Pune', category: 'comedy' }],
      ['events.page', { exceptCity: 'Pune' }],
      ['events.page', { category: 'comedy', cursor: first.nextCursor }],
      ['events.page', { city: 'Pune', from: '2026-12-01', to: '2026-12-31' }],
      ['events.list', undefined],
      ['events.search', { q: 'arijit' }],
      ['events.searchPage', { q: 'kenny sebastian' }],
      ['events.searchPage', { q: 'comedy' }],
      ['events.searchPage', { q: 'mumbai' }],
      ['events.searchPage', { q: 'arjit' }],
      ['events.suggest', { q: 'prithvi' }],
    ] as const) {
      await query(name, input);
    }
    const statements = compiled.stop();
    expect(statements.length).toBeGreaterThan(5);
    const problems = statements.flatMap((source) => {
      const parameters = Array((source.match(/\?/g) ?? []).length).fill('x');
      const plan = t.deps.sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...parameters) as {
        detail: string;
      }[];
      return plan
        .map((p) => p.detail)
        .filter(
          (detail) =>
            /^SCAN (e|events|tt|ticket_types|slots|s|event_dates|d)\b(?! VIRTUAL)/.test(detail) ||
            // Ranking a search's matches sorts them; a list never sorts.
            (/TEMP B-TREE/.test(detail) && !/event_search/.test(source)) ||
            // A search reads the events it found by key, never a range of the catalogue.
            (/event_search/.test(source) && /^SEARCH e USING (COVERING )?INDEX events_list/.test(detail)),
        )
        .map((detail) => `${detail} :: ${source}`);
    });
    expect(problems).toEqual([]);
  });
});

describe('what the catalogue keeps up to date', () => {
  it('the editor keeps the lowest price and the search index; drafts and unpublished events are never found', async () => {
    const t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
    try {
      const organiser = await account(t, 'organiser');
      const cookie = organiser.cookie;
      const edit = async (name: string, input: unknown) => {
        const res = await callProcedure(t, 'mutation', `organiser.${name}`, input, { cookie });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.data as {
          version: number;
          eventId: string;
          dateId: string;
          slotId: string;
          ticketTypeId: string;
        };
      };
      const found = async (q: string) =>
        ((await callProcedure(t, 'query', 'events.searchPage', { q })).data as Page).items.map((e) => e.id);
      const price = async (id: string) =>
        ((await callProcedure(t, 'query', 'events.page', { city: 'Pune' })).data as Page).items.find(
          (e) => e.id === id,
        )?.lowestPricePaise;

      const created = await edit('createEvent', {
        name: 'Monsoon Ragas',
        category: 'concerts',
        city: 'Pune',
        eventLocationText: 'Ganesh Kala Krida Manch',
        googleMapsEmbedLink: '',
        description: 'An evening of Hindustani classical music.',
        ageRestrictions: null,
        language: '',
        termsAndConditions: [],
        artists: [{ name: 'Kaushiki Chakraborty' }],
        platformFeeRate: null,
        posterUrl: '/images/events/sufi-nights-delhi-poster.webp',
      });
      const { eventId } = created;
      // A date three weeks after the test clock's now, whatever day the suite runs.
      const day = new Date(t.clock.now().getTime() + 21 * 86_400_000).toISOString().slice(0, 10);
      const date = await edit('addDate', { eventId, version: created.version, day });
      const slot = await edit('addSlot', {
        eventId,
        version: date.version,
        dateId: date.dateId,
        startTime: '18:30',
        endTime: '21:00',
      });
      const ticket = {
        name: 'Gold',
        priceRupees: 1499,
        totalTickets: 100,
        maxPerOrder: 6,
        personAllowedPerTicket: 1,
        description: '',
        benefits: [],
        isRefundable: false,
        onSale: true,
        saleOpensAt: null,
        saleClosesAt: null,
      };
      const gold = await edit('addTicketType', {
        eventId,
        version: slot.version,
        slotId: slot.slotId,
        ticket,
      });
      expect(await found('Kaushiki')).toEqual([]); // a draft
      const published = await edit('publish', { eventId, version: gold.version });
      expect(await found('Kaushiki')).toEqual([eventId]);
      expect(await found('kaushki')).toEqual([eventId]); // misspelt
      expect(await price(eventId)).toBe(149_900);

      const silver = await edit('addTicketType', {
        eventId,
        version: published.version,
        slotId: slot.slotId,
        ticket: { ...ticket, name: 'Silver', priceRupees: 499 },
      });
      expect(await price(eventId)).toBe(49_900);
      const cheaper = await edit('updateTicketType', {
        eventId,
        version: silver.version,
        ticketTypeId: silver.ticketTypeId,
        ticket: { ...ticket, name: 'Silver', priceRupees: 299 },
      });
      expect(await price(eventId)).toBe(29_900);
      // The event page reads the same maintained price as the cards.
      const detail = await callProcedure(t, 'query', 'events.byId', { id: eventId });
      expect((detail.data as { lowestPricePaise: number | null }).lowestPricePaise).toBe(29_900);
      const removed = await edit('removeTicketType', {
        eventId,
        version: cheaper.version,
        ticketTypeId: silver.ticketTypeId,
      });
      expect(await price(eventId)).toBe(149_900);

      const unpublished = await edit('unpublish', { eventId, version: removed.version });
      expect(await found('Kaushiki')).toEqual([]);
      expect(await price(eventId)).toBeUndefined();

      // Published again, then cancelled: a cancelled event leaves search and lists at once.
      const again = await edit('publish', { eventId, version: unpublished.version });
      expect(await found('Kaushiki')).toEqual([eventId]);
      await edit('cancelEvent', { eventId, version: again.version });
      expect(await found('Kaushiki')).toEqual([]);
      expect(await price(eventId)).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('a hold keeps the cached list and search; an edit to an event does not; unknown parameters share an entry', async () => {
    const t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
    try {
      await createTicketedEventOn(t.deps.db, { name: 'Cache Night', city: 'Pune' });
      const input = encodeURIComponent(JSON.stringify({ city: 'Pune' }));
      const get = (suffix = '') => t.request(`/trpc/events.page?input=${input}${suffix}`);
      const ok = async (suffix = '') => expect((await get(suffix)).status).toBe(200);
      expect(await eventReadsDuring(t, () => ok())).toBeGreaterThan(0);
      expect(
        await eventReadsDuring(t, async () => {
          await ok('&_=1');
          await ok('&_=2&utm_source=x');
        }),
      ).toBe(0);
      // A write that is not an event (a rate-limit row, like a hold or a booking) keeps the entry.
      const { rateLimitHits } = tablesOf(t.deps.db);
      await t.deps.db.insert(rateLimitHits).values({ limitName: 'x', key: 'y', expiresAt: 'z' });
      expect(await eventReadsDuring(t, () => ok())).toBe(0);
      // An edit to an event moves the catalogue's version.
      await createTicketedEventOn(t.deps.db, { name: 'Another Night', city: 'Pune' });
      const fresh = (await (await get()).json()) as { result: { data: Page } };
      expect(fresh.result.data.items.map((e) => e.name)).toContain('Another Night');
    } finally {
      await t.close();
    }
  });

  it('limits the searches one client can have computed', async () => {
    const t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
    try {
      let limited = 0;
      for (let i = 0; i < 70; i += 1) {
        const res = await callProcedure(t, 'query', 'events.searchPage', { q: `word${i}` });
        if (res.status === 429) limited += 1;
      }
      expect(limited).toBe(10);
    } finally {
      await t.close();
    }
  });
});

/** Every distinct SQL text compiled from now until `stop()`. */
function recordStatements(sqlite: Database.Database) {
  const compiled = new Set<string>();
  const prepare = sqlite.prepare;
  sqlite.prepare = ((source: string) => {
    compiled.add(source);
    return prepare.call(sqlite, source);
  }) as typeof prepare;
  return {
    stop: () => {
      sqlite.prepare = prepare;
      return [...compiled].filter((source) => /^\s*(select|with)\b/i.test(source));
    },
  };
}

// SQLite only: the bench fixture writes with SQLite's own statements, its FTS5 index (event_search) too.
describe.runIf(testEngine() === 'sqlite')('the catalogue bench fixture', () => {
  it('removes exactly what it added: the demo is as it was, in lists and search', async () => {
    const t = createTestApp({ SEED_DEMO_DATA: 'true' });
    try {
      const tables = ['events', 'event_dates', 'slots', 'ticket_types', 'artists', 'event_search_keys'];
      const counts = () =>
        Object.fromEntries(
          [...tables, 'event_search'].map((table) => [
            table,
            t.deps.sqlite.prepare(`select count(*) from ${table}`).pluck().get(),
          ]),
        );
      const search = async () => (await callProcedure(t, 'query', 'events.searchPage', { q: 'comedy' })).data;
      const before = { counts: counts(), search: await search() };
      insertLargeCatalogue(t.deps.db, 200, { now: t.clock.now() });
      expect(counts().events).toBe((before.counts.events as number) + 200);
      expect(await search()).not.toEqual(before.search);

      removeLargeCatalogue(t.deps.db, 200);
      expect({ counts: counts(), search: await search() }).toEqual(before);
    } finally {
      t.close();
    }
  });
});
