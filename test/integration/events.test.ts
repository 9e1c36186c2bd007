import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { seedDemoData } from '../../src-server/db/seed/seed.ts';
import type { EventDetail, EventSummary } from '../../src-server/services/catalog/events.ts';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { type SeededCopies, seededCopies } from '../helpers/seeded-copies.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const POPULAR = [
  'Delhi/NCR',
  'Mumbai',
  'Chandigarh',
  'Hyderabad',
  'Ahmedabad',
  'Kolkata',
  'Chennai',
  'Bengaluru',
  'Pune',
];

describe('events procedures on the demo catalogue', () => {
  let t: TestApp;
  // The demo catalogue is made once, through the event editor's services (the costly part on
  // PostgreSQL); each test gets its own copy of it.
  let catalogue: SeededCopies;
  beforeAll(async () => {
    catalogue = await seededCopies(testEngine(), async (app) => {
      await seedDemoData(app.deps.db, app.clock);
    });
  });
  afterAll(async () => {
    await catalogue.close();
  });
  beforeEach(async () => {
    t = await catalogue.app();
  });
  afterEach(async () => {
    await t.close();
  });

  const list = async (input?: unknown) =>
    (await callProcedure(t, 'query', 'events.list', input)).data as EventSummary[];
  const search = async (q: string) =>
    (await callProcedure(t, 'query', 'events.search', { q })).data as EventSummary[];

  it('lists every upcoming demo event, soonest first, over all nine popular cities and six categories', async () => {
    const events = await list();
    expect(events.length).toBeGreaterThanOrEqual(24);
    const starts = events.map((e) => e.startTime);
    expect(starts).toEqual([...starts].sort());
    expect(events.every((e) => e.startTime > t.clock.now().toISOString())).toBe(true);
    expect(new Set(events.map((e) => e.city)).size).toBeGreaterThanOrEqual(9);
    for (const city of POPULAR) expect(events.some((e) => e.city === city)).toBe(true);
    expect(new Set(events.map((e) => e.category))).toEqual(
      new Set(['concerts', 'sports', 'shows', 'comedy', 'workshops', 'others']),
    );
    const food = events.find((e) => e.id === 'chennai-street-food-carnival');
    expect(food?.lowestPricePaise).toBe(19900);
    expect(events.find((e) => e.id === 'sufi-nights-delhi')?.lowestPricePaise).toBe(99900);
  });

  it('does not duplicate demo data when seeding a second time', async () => {
    const before = (await list()).length;
    expect(await seedDemoData(t.deps.db, t.clock)).toBe(0);
    expect((await list()).length).toBe(before);
  });

  it('leaves out events that are over but keeps those with a date still to come', async () => {
    t.clock.advance(5 * 86_400_000);
    const ids = (await list()).map((e) => e.id);
    // Both dates of the Sufi nights (days 3 and 4) and the one Retro Bollywood night (day 4) are over.
    expect(ids).not.toContain('sufi-nights-delhi');
    expect(ids).not.toContain('retro-bollywood-mumbai');
    // The open mic's first date (day 2) is over, its weekly repeats are not.
    expect(ids).toContain('sunday-sarcasm-mumbai');
  });

  it('filters by city, accepting aliases, and by category and India day', async () => {
    const delhi = await list({ city: 'Delhi/NCR' });
    expect(delhi.length).toBeGreaterThan(0);
    expect(delhi.every((e) => e.city === 'Delhi/NCR')).toBe(true);
    expect((await list({ city: 'Gurgaon' })).map((e) => e.id)).toEqual(delhi.map((e) => e.id));
    expect((await list({ city: 'bangalore' })).every((e) => e.city === 'Bengaluru')).toBe(true);
    expect(await list({ city: 'Atlantis' })).toEqual([]);

    const comedy = await list({ category: 'comedy' });
    expect(comedy.length).toBeGreaterThan(0);
    expect(comedy.every((e) => e.category === 'comedy')).toBe(true);

    const first = (await list())[0]!;
    const day = new Date(new Date(first.startTime).getTime() + 5.5 * 3_600_000).toISOString().slice(0, 10);
    const onDay = await list({ from: day, to: day });
    expect(onDay.map((e) => e.id)).toContain(first.id);
    expect(onDay.length).toBeLessThan((await list()).length);
  });

  it('searches by event name, venue, city (or alias) and artist, ignoring case', async () => {
    expect((await search('indie rock')).map((e) => e.id)).toEqual(['bengaluru-indie-rock-fest']);
    expect((await search('prithvi')).map((e) => e.id)).toEqual(['tughlaq-prithvi']);
    const kolkata = await search('kolkata');
    expect(kolkata.length).toBeGreaterThanOrEqual(3);
    expect(kolkata.every((e) => e.city === 'Kolkata')).toBe(true);
    expect((await search('Calcutta')).map((e) => e.id).sort()).toEqual(kolkata.map((e) => e.id).sort());
    expect((await search('zoya qureshi')).map((e) => e.id)).toEqual(['sufi-nights-delhi']);
    expect(await search('no event is called this')).toEqual([]);
    // LIKE wildcards are matched literally.
    expect(await search('%')).toEqual([]);
  });

  it('rejects an empty search', async () => {
    const res = await callProcedure(t, 'query', 'events.search', { q: '   ' });
    expect(res.status).toBe(400);
  });

  it('returns an event in the nested shape with prices in paise', async () => {
    const res = await callProcedure(t, 'query', 'events.byId', { id: 'sufi-nights-delhi' });
    expect(res.status).toBe(200);
    const event = res.data as EventDetail;
    expect(event.name).toBe('Sufi Nights under the Stars');
    expect(event.tickets).toHaveLength(2);
    const slot = event.tickets[0]!.slots[0]!;
    expect(slot.tickets.map((tt) => [tt.name, tt.pricePaise, tt.availableTickets])).toEqual([
      ['Silver', 99900, 400],
      ['Gold', 199900, 200],
      ['Fan Pit', 299900, 0],
    ]);
    expect(slot.tickets[1]!.benefits).toContain('Dedicated entry lane');
    expect(event.lowestPricePaise).toBe(99900);
    expect(event.artistLineup?.map((a) => a.name)).toEqual(['Noor-e-Sufi Ensemble', 'Zoya Qureshi']);
    expect(event.googleMapsEmbedLink).toMatch(/^https:\/\/www\.google\.com\/maps\?q=.+&output=embed$/);
    expect(event.termsAndConditions.length).toBeGreaterThan(0);
    expect(event.posterUrl).toBe('/images/events/sufi-nights-delhi-poster.webp');
  });

  it('gives a type on sale later its sale window, and events without artists or ticket types null lineups and prices', async () => {
    const retro = (await callProcedure(t, 'query', 'events.byId', { id: 'retro-bollywood-mumbai' }))
      .data as EventDetail;
    // The demo's lounge goes on sale two days after the seed, at 10 AM India time (the test clock
    // starts on 21 Nov 2026).
    const lounge = retro.tickets[0]!.slots[0]!.tickets.find((tt) => tt.name === 'Platinum Lounge');
    expect(lounge).toMatchObject({
      isLive: true,
      saleOpensAt: '2026-11-23T04:30:00.000Z',
      saleClosesAt: null,
    });
    expect(lounge?.description).not.toMatch(/soon/i);
    const run = (await callProcedure(t, 'query', 'events.byId', { id: 'delhi-green-run' }))
      .data as EventDetail;
    expect(run.artistLineup).toBeNull();
    // Every demo event has ticket types (it is published like any other); a fixture has none.
    const bare = await createTicketedEventOn(t.deps.db, { noTickets: true, now: t.clock.now() });
    const noTypes = (await callProcedure(t, 'query', 'events.byId', { id: bare.eventId }))
      .data as EventDetail;
    expect(noTypes.lowestPricePaise).toBeNull();
    expect(noTypes.tickets).toEqual([]);
  });

  it("answers NOT_FOUND 'Event not found' for an unknown id", async () => {
    const res = await callProcedure(t, 'query', 'events.byId', { id: 'no-such-event' });
    expect(res.status).toBe(404);
    expect(res.body.error?.message).toBe('Event not found');
  });
});

describe('contact.send', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('stores a valid message', async () => {
    const res = await callProcedure(t, 'mutation', 'contact.send', {
      firstName: ' Asha ',
      lastName: 'Verma',
      email: 'asha@example.com',
      mobile: '9876543210',
      message: 'Is there parking at the venue?',
    });
    expect(res.status).toBe(200);
    const rows = await t.deps.db.select().from(tablesOf(t.deps.db).contactMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      firstName: 'Asha',
      lastName: 'Verma',
      email: 'asha@example.com',
      mobile: '9876543210',
      message: 'Is there parking at the venue?',
      createdAt: t.clock.now().toISOString(),
    });
  });

  it('refuses invalid fields with a message per field and stores nothing', async () => {
    const res = await callProcedure(t, 'mutation', 'contact.send', {
      firstName: '',
      email: 'not-an-email',
      mobile: '12345',
      message: '  ',
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.data.fieldErrors).toEqual({
      firstName: 'First name is required',
      email: 'Please enter a valid email address',
      mobile: 'Please enter a valid 10-digit mobile number',
      message: 'Message is required',
    });
    expect(await t.deps.db.select().from(tablesOf(t.deps.db).contactMessages)).toHaveLength(0);
  });
});
