import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITING_ROOM_MESSAGES } from '../../shared/waiting-room.ts';
import { createApp } from '../../src-server/app.ts';
import { composeDeps } from '../../src-server/compose-deps.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres } from '../../src-server/db/engine/postgres.ts';
import { isPostgres } from '../../src-server/db/engine/reads.ts';
import { HEALTHY } from '../../src-server/http/health-check.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { markEmailVerified } from '../../src-server/services/accounts/mark-email-verified.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { signAdmissionPass } from '../../src-server/services/waiting-room/tokens.ts';
import { storefront } from '../helpers/storefront-http.ts';
import { createTestAppOn, enginesFor, type TestApp } from '../helpers/test-app.ts';
import { allowLocalServers } from '../mocks/server.ts';

// The whole app on either engine (issue 38, ADR 0035), built as the composition root builds it
// (createTestAppOn): the same requests, the same answers. test/process/postgres-servers.test.ts runs
// real servers on PostgreSQL; this is the in-process twin that shows SQLite answers alike.

const engines = enginesFor('engine-app.test.ts');

describe.each(engines)('the app on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    allowLocalServers();
    t = await createTestAppOn(engine);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
  });

  it('runs on the engine asked for, and on PostgreSQL refuses any use of SQLite', () => {
    expect(isPostgres(t.deps.db)).toBe(engine === 'postgres');
    if (engine === 'postgres') {
      expect(() => t.deps.sqlite.prepare('select 1')).toThrow(/deps.sqlite.prepare used on PostgreSQL/);
    }
  });

  it('answers the health check', async () => {
    const res = await t.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(HEALTHY);
  });

  it('answers the waiting page’s status check (an event without a room: the public state only)', async () => {
    const res = await t.request('/api/waiting-room/evt-without-a-room');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ enabled: false, open: false });
  });

  it('signs a buyer up and in, lists an organiser’s published event on the home page and shows its page', async () => {
    const site = storefront(t.request);
    const buyer = await site.signUpAndSignIn('Asha Verma', 'asha@example.in');
    expect(buyer.me).toMatchObject({ email: 'asha@example.in' });
    const wrong = await site.call('mutation', 'auth.signIn', {
      email: 'asha@example.in',
      password: 'not-it-at-all',
    });
    expect(wrong.status).toBe(401);

    const organiser = await site.signUpAndSignIn('Ravi Rao', 'ravi@example.in');
    await setAccountRoleByEmail(
      t.deps.db,
      { email: 'ravi@example.in', role: 'organiser', grantedBy: null },
      t.clock.now(),
    );
    const { eventId } = await site.publishEvent(organiser.cookie, 'Opening Night', 'Pune', t.clock.now());

    expect(await site.homeEventIds('Pune')).toContain(eventId);
    const page = await site.eventPage(eventId);
    expect(page.status).toBe(200);
    expect(page.data.name).toBe('Opening Night');
    expect(JSON.stringify(page.data.tickets)).toContain('"name":"Gold"');

    // The search box: its results and the typeahead under it find the event by a part of its name.
    const found = await site.ok<{ id: string }[]>('query', 'events.search', { q: 'opening' });
    expect(found.data.map((e) => e.id)).toEqual([eventId]);
    const suggested = await site.ok<{ events: { id: string }[] }>('query', 'events.suggest', { q: 'openi' });
    expect(suggested.data.events.map((e) => e.id)).toEqual([eventId]);
  });

  /** A verified buyer (Proceed needs one), signed in: their cookie. */
  async function verifiedBuyer(site: ReturnType<typeof storefront>, name: string, email: string) {
    const { cookie } = await site.signUpAndSignIn(name, email);
    await markEmailVerified(t.deps.db, email, t.clock.now());
    return cookie;
  }

  async function organiserEvent(site: ReturnType<typeof storefront>, email: string, seats: number) {
    const organiser = await site.signUpAndSignIn('Ravi Rao', email);
    await setAccountRoleByEmail(t.deps.db, { email, role: 'organiser', grantedBy: null }, t.clock.now());
    return site.publishEvent(organiser.cookie, `Show for ${email}`, 'Pune', t.clock.now(), seats);
  }

  it('a buyer proceeds, pays with the simulator and gets a booking with its ticket and QR in My Bookings', async () => {
    const site = storefront(t.request);
    const event = await organiserEvent(site, 'org-buy@example.in', 100);
    const cookie = await verifiedBuyer(site, 'Meera Iyer', 'meera@example.in');

    const { started, paid, confirmed } = await site.buy(cookie, event, 2);
    expect(started.status, JSON.stringify(started.error)).toBe(200);
    expect(started.data.amountPaise).toBeGreaterThan(2 * 49_900 - 1);
    expect(paid?.status).toBe(200);
    expect(confirmed?.status, JSON.stringify(confirmed?.error)).toBe(200);
    expect(confirmed?.data.outcome).toBe('booked');
    const bookingId = confirmed!.data.bookingId!;
    // The simulator's webhooks arrive after the callback: the same payment, booked once.
    await simulatorWebhooksDelivered(t.deps);

    const mine = await site.ok<{ id: string }[]>('query', 'bookings.mine', undefined, cookie);
    expect(mine.data.map((b) => b.id)).toEqual([bookingId]);
    const ticket = await site.ok<{ id: string; qrToken: string; status: string }>(
      'query',
      'bookings.byId',
      { bookingId },
      cookie,
    );
    expect(ticket.data).toMatchObject({ id: bookingId, status: 'confirmed' });
    expect(ticket.data.qrToken.length).toBeGreaterThan(10);
    const page = await site.eventPage(event.eventId);
    expect(JSON.stringify(page.data.tickets)).toContain('"availableTickets":98');
  });

  it('a waiting-room event: Proceed refused before opening and without a pass, accepted with one', async () => {
    const site = storefront(t.request);
    const organiser = await site.signUpAndSignIn('Ravi Rao', 'org-room@example.in');
    await setAccountRoleByEmail(
      t.deps.db,
      { email: 'org-room@example.in', role: 'organiser', grantedBy: null },
      t.clock.now(),
    );
    const event = await site.publishEvent(organiser.cookie, 'Room Night', 'Pune', t.clock.now());
    const opensAt = new Date(t.clock.now().getTime() + 10 * 60_000);
    await site.ok(
      'mutation',
      'organiser.updateWaitingRoom',
      { eventId: event.eventId, enabled: true, opensAt: opensAt.toISOString(), admitPerMinute: null },
      organiser.cookie,
    );
    const cookie = await verifiedBuyer(site, 'Kavya Rao', 'kavya@example.in');
    const me = await site.ok<{ id: string }>('query', 'auth.me', undefined, cookie);

    const early = await site.buy(cookie, event, 1);
    expect(early.started.status).toBe(409);
    expect(early.started.error?.message).toBe(WAITING_ROOM_MESSAGES.notOpenYet);
    t.clock.set(new Date(opensAt.getTime() + 1_000));
    const noPass = await site.buy(cookie, event, 1);
    expect(noPass.started.status).toBe(403);
    expect(noPass.started.error?.message).toBe(WAITING_ROOM_MESSAGES.passRequired);
    const pass = signAdmissionPass(t.deps.appSecret, {
      eventId: event.eventId,
      userId: me.data.id,
      expiresAt: t.clock.now().getTime() + 60_000,
    });
    const withPass = await site.buy(cookie, event, 1, pass);
    expect(withPass.started.status, JSON.stringify(withPass.started.error)).toBe(200);
    expect(withPass.confirmed?.data.outcome).toBe('booked');
  });

  it('50 buyers racing for the last 5 seats (two app instances on one database): exactly 5 bookings, none oversold', async () => {
    const site = storefront(t.request);
    const event = await organiserEvent(site, 'org-race@example.in', 5);
    // On PostgreSQL a second app on the same database, as a second server; on SQLite the one app.
    const pool =
      engine === 'postgres' ? await openPostgres(t.deps.env.DATABASE_URL!, { poolSize: 10 }) : undefined;
    const secondDeps = pool ? composeDeps({ ...t.deps, db: pool as unknown as Db }) : t.deps;
    const second = pool ? createApp(secondDeps) : t.app;
    const sites = [site, storefront(async (p, init) => second.request(`http://localhost${p}`, init))];
    const buyers: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      // One address signs up 20 accounts an hour (request-limits.ts), the cases above some: an hour passes.
      if (i % 15 === 0) t.clock.advance(3_600_001);
      buyers.push(await verifiedBuyer(site, `Buyer ${i}`, `racer${i}@example.in`));
    }
    const results = await Promise.all(buyers.map((cookie, i) => sites[i % 2]!.buy(cookie, event, 1)));
    await simulatorWebhooksDelivered(t.deps);
    await simulatorWebhooksDelivered(secondDeps);
    await pool?.$client.end();
    const booked = results.filter((r) => r.confirmed?.data?.outcome === 'booked');
    expect(booked).toHaveLength(5);
    // Every other buyer heard the spec's sold-out answer at Proceed, none a server error.
    for (const r of results) {
      if (r.confirmed?.data?.outcome === 'booked') continue;
      expect(r.started.status, JSON.stringify(r.started.error)).toBe(409);
    }
    const page = await site.eventPage(event.eventId);
    expect(JSON.stringify(page.data.tickets)).toContain('"availableTickets":0');
  }, 120_000);
});
