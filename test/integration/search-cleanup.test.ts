import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropEndedFromSearch } from '../../src-server/services/catalog/drop-ended-from-search.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

interface Page {
  items: { id: string; name: string }[];
  total: number | null;
  nextCursor: string | null;
  approximate: boolean;
}

describe('ended events leave the search index (issue 25)', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp({ SEED_DEMO_DATA: 'false' });
  });
  afterEach(() => t.close());

  const documents = () =>
    t.deps.db.get<{ n: number }>(sql`select count(*) as n from event_search_keys`)!.n +
    t.deps.db.get<{ n: number }>(sql`select count(*) as n from event_search`)!.n;
  const search = async (q: string) =>
    (await callProcedure(t, 'query', 'events.searchPage', { q })).data as Page;

  it("a popular artist's past shows no longer push the next one out of an exact search", async () => {
    const past = new Date(t.clock.now().getTime() - 30 * 86_400_000);
    // A hundred and ten past shows whose names match better than the one still to come.
    for (let i = 0; i < 110; i += 1) createTicketedEvent(t.deps.db, { now: past, name: `Papon ${i}` });
    const next = createTicketedEvent(t.deps.db, {
      name: 'An evening of songs with Papon and his band by the river',
    });
    expect(documents()).toBe(2 * 111);

    const before = await search('papon');
    // The ended shows rank first and use up the page's reads of the ranking: the exact word finds
    // nothing, and the answer falls back to 'similar spellings' as if "papon" were misspelt.
    expect(before).toMatchObject({ items: [{ id: next.eventId }], approximate: true });

    const versionBefore = t.deps.db.get<{ v: number }>(sql`select version as v from catalog_version`)!.v;
    expect(await dropEndedFromSearch(t.deps.db, t.clock.now())).toBe(110);
    expect(documents()).toBe(2);
    expect(t.deps.db.get<{ v: number }>(sql`select version as v from catalog_version`)!.v).toBe(
      versionBefore + 1,
    );

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
