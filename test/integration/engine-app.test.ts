import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src-server/db/engine/reads.ts';
import { HEALTHY } from '../../src-server/http/health-check.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { storefront } from '../helpers/storefront-http.ts';
import { createTestAppOn, type Engine, type TestApp } from '../helpers/test-app.ts';
import { testPostgresUrl } from '../helpers/test-postgres.ts';
import { allowLocalServers } from '../mocks/server.ts';

// The whole app on either engine (issue 38, ADR 0035), built as the composition root builds it
// (createTestAppOn): the same requests, the same answers. test/process/postgres-servers.test.ts runs
// real servers on PostgreSQL; this is the in-process twin that shows SQLite answers alike.

const serverUrl = testPostgresUrl('engine-app.test.ts');
const engines: Engine[] = serverUrl ? ['sqlite', 'postgres'] : ['sqlite'];

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
});
