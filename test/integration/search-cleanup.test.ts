import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStatements, sqlRows } from '../../src-server/db/engine/reads.ts';
import { dropEndedFromSearch } from '../../src-server/services/catalog/drop-ended-from-search.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

interface Page {
  items: { id: string; name: string }[];
  total: number | null;
  nextCursor: string | null;
  approximate: boolean;
}

describe('ended events leave the search index (issue 25)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), { SEED_DEMO_DATA: 'false' });
  });
  afterEach(async () => {
    await t.close();
  });

  const count = async (query: ReturnType<typeof sql>) =>
    Number((await runStatements(t.deps.db, (db) => sqlRows<{ n: number }>(db, query)))[0]!.n);
  /**
   * How many events the search index holds: on SQLite its FTS5 documents and their keys, one of each per
   * event (always as many); on PostgreSQL its event_search rows, one per event.
   */
  const documents = async () => {
    const inIndex = await count(sql`select count(*) as n from event_search`);
    if (t.engine === 'sqlite')
      expect(await count(sql`select count(*) as n from event_search_keys`)).toBe(inIndex);
    return inIndex;
  };
  const catalogVersion = () => count(sql`select version as n from catalog_version`);
  const search = async (q: string) =>
    (await callProcedure(t, 'query', 'events.searchPage', { q })).data as Page;

  it("a popular artist's past shows no longer push the next one out of an exact search", async () => {
    const past = new Date(t.clock.now().getTime() - 30 * 86_400_000);
    // A hundred and ten past shows whose names match better than the one still to come.
    for (let i = 0; i < 110; i += 1)
      await createTicketedEventOn(t.deps.db, { now: past, name: `Papon ${i}` });
    const next = await createTicketedEventOn(t.deps.db, {
      name: 'An evening of songs with Papon and his band by the river',
    });
    expect(await documents()).toBe(111);

    const before = await search('papon');
    // On SQLite the ended shows rank first in FTS5 and use up the page's reads of the ranking: the exact
    // word finds nothing, and the answer falls back to 'similar spellings' as if "papon" were misspelt.
    // PostgreSQL's search leaves ended events out inside its one query (search-events-pg.ts), so it
    // finds the next show exactly even before the clean-up; the clean-up keeps its index small there.
    expect(before).toMatchObject({ items: [{ id: next.eventId }], approximate: t.engine === 'sqlite' });

    const versionBefore = await catalogVersion();
    expect(await dropEndedFromSearch(t.deps.db, t.clock.now())).toBe(110);
    expect(await documents()).toBe(1);
    expect(await catalogVersion()).toBe(versionBefore + 1);

    const after = await search('papon');
    expect(after).toMatchObject({
      items: [{ id: next.eventId }],
      total: 1,
      nextCursor: null,
      approximate: false,
    });
    // Nothing left to drop; the upcoming event stays until it ends.
    expect(await dropEndedFromSearch(t.deps.db, t.clock.now())).toBe(0);
    expect(await dropEndedFromSearch(t.deps.db, new Date(t.clock.now().getTime() + 365 * 86_400_000))).toBe(
      1,
    );
    expect((await search('papon')).items).toEqual([]);
  });
});
