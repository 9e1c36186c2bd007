import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { events, ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { discountCodes } from '../../src-server/db/schema/discounts.ts';
import { quotas, quotaTicketTypes } from '../../src-server/db/schema/quotas.ts';
import { seedDemoData } from '../../src-server/db/seed/seed.ts';
import { validateSessionSteps } from '../../src-server/services/accounts/sessions.ts';
import {
  type EventPage,
  readEventPage,
  readHomeRows,
} from '../../src-server/services/catalog/event-pages.ts';
import { readEvent } from '../../src-server/services/catalog/events.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { createSignedInUser } from '../helpers/users.ts';

// ADR 0045, "reads become awaited": the buyer's catalogue (home, lists by city, category and days,
// their cursors and counts, the event page with hidden types and quotas) and the session lookup every
// request makes, read by the same functions on both engines from the same installation: the demo
// made by the app on SQLite and, for PostgreSQL, moved there. SQLite's answer is the reference.

const serverUrl = testPostgresUrl('engine-catalog-reads.test.ts');
let t: TestApp;
let target: ScratchPostgres | undefined;
let pgDb: PgDb | undefined;
let special: { eventId: string; hiddenTypeId: string; quotaTypeId: string };
let sessionToken: string;
let expiredToken: string;

beforeAll(async () => {
  t = createTestApp();
  await seedDemoData(t.deps.db, t.clock);
  special = addHiddenTypeAndQuota(t);
  sessionToken = tokenOf(createSignedInUser(t).cookie);
  expiredToken = tokenOf(createSignedInUser(t).cookie);
  if (serverUrl) {
    target = await moveToScratchPostgres(t, serverUrl, 'jalsa_catalog_reads');
    pgDb = await openPostgres(target.url, { poolSize: 4 });
  }
}, 60_000);

afterAll(async () => {
  await pgDb?.$client.end();
  await target?.drop({ waitForClosing: true });
  t?.close();
});

/** Each engine's database, as services see it. */
const engines: [string, () => Db][] = [['SQLite', () => t.deps.db]];
if (serverUrl) engines.push(['PostgreSQL', () => pgDb as unknown as Db]);

const now = () => t.clock.now();

describe.each(engines)('the catalogue and the session, read on %s', (_name, open) => {
  it('the home page: a city with events, a city without (its nearest cities), an unknown city', async () => {
    for (const city of ['Mumbai', 'Bombay', 'Shimla', 'Atlantis']) {
      const expected = await readHomeRows(t.deps.db, now(), city);
      expect(await readHomeRows(open(), now(), city), city).toEqual(expected);
    }
    expect((await readHomeRows(open(), now(), 'Mumbai')).near.items.length).toBeGreaterThan(0);
    expect((await readHomeRows(open(), now(), 'Shimla')).alternatives.length).toBeGreaterThan(0);
  });

  it('browsing: by city, every other city, category and India days; every page by its cursor, with the count', async () => {
    const inputs = [
      {},
      { city: 'Pune' },
      { exceptCity: 'Mumbai' },
      { category: 'comedy' as const },
      { city: 'Bengaluru', category: 'concerts' as const },
      { from: '2026-12-01', to: '2026-12-31' },
      { to: '2026-12-15' },
    ];
    for (const input of inputs) {
      const pages: EventPage[] = [];
      let cursor: string | undefined;
      do {
        const page = await readEventPage(open(), now(), { ...input, limit: 5, cursor });
        expect(page, JSON.stringify({ input, cursor })).toEqual(
          await readEventPage(t.deps.db, now(), { ...input, limit: 5, cursor }),
        );
        pages.push(page);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && pages.length < 20);
      const ids = pages.flatMap((p) => p.items.map((e) => e.id));
      expect(new Set(ids).size, JSON.stringify(input)).toBe(ids.length);
    }
    const all = await readEventPage(open(), now(), { limit: 5 });
    expect(all.total).toBeGreaterThan(5);
  });

  it('the event page: every listed event, a hidden type only with its code, seats limited by a quota', async () => {
    const listed = await readEventPage(t.deps.db, now(), { limit: 100 });
    for (const { id } of listed.items) {
      expect(await readEvent(open(), id, { now: now() }), id).toEqual(
        await readEvent(t.deps.db, id, { now: now() }),
      );
    }
    const plain = await readEvent(open(), special.eventId, { now: now() });
    const withCode = await readEvent(open(), special.eventId, { now: now(), accessCode: ' VIP ' });
    const typesOf = (e: typeof plain) => e.tickets.flatMap((d) => d.slots.flatMap((s) => s.tickets));
    expect(typesOf(plain).map((x) => x.id)).not.toContain(special.hiddenTypeId);
    expect(typesOf(withCode).map((x) => x.id)).toContain(special.hiddenTypeId);
    expect(typesOf(plain).find((x) => x.id === special.quotaTypeId)?.availableTickets).toBe(3);
    expect(withCode).toEqual(
      await readEvent(t.deps.db, special.eventId, { now: now(), accessCode: ' VIP ' }),
    );
    await expect(readEvent(open(), 'no-such-event')).rejects.toThrow('Event not found');
  });

  it('the session lookup: the signed-in user; an unknown token nobody; an expired one removed', async () => {
    const session = await runStatements(open(), (db) => validateSessionSteps(db, sessionToken, now()));
    expect(session).toMatchObject({ renewed: false, user: { email: expect.stringContaining('@') } });
    expect(session).toEqual(
      await runStatements(t.deps.db, (db) => validateSessionSteps(db, sessionToken, now())),
    );
    expect(await runStatements(open(), (db) => validateSessionSteps(db, 'nope', now()))).toBeNull();
    // 20 days on, the session is renewed (the cookie re-sent); 40 days on from there, it has expired.
    const later = new Date(now().getTime() + 20 * 86_400_000);
    const renewed = await runStatements(open(), (db) => validateSessionSteps(db, expiredToken, later));
    expect(renewed?.renewed).toBe(true);
    const muchLater = new Date(later.getTime() + 40 * 86_400_000);
    expect(await runStatements(open(), (db) => validateSessionSteps(db, expiredToken, muchLater))).toBeNull();
    expect(await runStatements(open(), (db) => validateSessionSteps(db, expiredToken, later))).toBeNull();
  });
});

function tokenOf(cookie: string): string {
  return /jalsa_session=([^;]+)/.exec(cookie)![1]!;
}

/** An event with a hidden type (unlocked by the code "vip") and a type limited to 3 by a quota. */
function addHiddenTypeAndQuota(app: TestApp) {
  const event = createTicketedEvent(app.deps.db, {
    city: 'Pune',
    types: [
      { name: 'Regular', pricePaise: 50_000, totalTickets: 40 },
      { name: 'Backstage', pricePaise: 250_000, totalTickets: 5 },
    ],
  });
  const db = app.deps.db;
  const types = db.select().from(ticketTypes).where(eq(ticketTypes.slotId, event.slotId)).all();
  const regular = types.find((x) => x.name === 'Regular')!;
  const backstage = types.find((x) => x.name === 'Backstage')!;
  const at = app.clock.now().toISOString();
  db.update(ticketTypes).set({ isHidden: true }).where(eq(ticketTypes.id, backstage.id)).run();
  db.insert(discountCodes)
    .values({
      id: 'code-vip',
      eventId: event.eventId,
      code: 'VIP',
      codeKey: 'vip',
      kind: 'percent',
      percentOff: 0,
      unlocksTicketTypeIds: [backstage.id],
      createdAt: at,
      updatedAt: at,
    })
    .run();
  db.insert(quotas)
    .values({
      id: 'quota-1',
      eventId: event.eventId,
      name: 'Block',
      capacity: 3,
      available: 3,
      createdAt: at,
      updatedAt: at,
    })
    .run();
  db.insert(quotaTicketTypes).values({ ticketTypeId: regular.id, quotaId: 'quota-1' }).run();
  db.update(events).set({ status: 'published' }).where(eq(events.id, event.eventId)).run();
  return { eventId: event.eventId, hiddenTypeId: backstage.id, quotaTypeId: regular.id };
}
