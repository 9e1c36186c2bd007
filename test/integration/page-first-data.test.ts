import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTicketedEventOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

interface InitialQuery {
  path: string;
  input: unknown;
  data: unknown;
}

const BLOCK = /<script type="application\/json" id="initial-data">([\s\S]*?)<\/script>/;

/** The first screen's data the page carries (src-server/http/page-shell.ts initialDataTag). */
function firstData(html: string): InitialQuery[] {
  const block = BLOCK.exec(html)?.[1];
  if (block === undefined) throw new Error('the page carries no first-screen data');
  return JSON.parse(block) as InitialQuery[];
}

// Issue 39: the home and event pages' first data travel with the HTML, so the first screen needs no
// second round trip; the client puts them in its query cache before its first render.
describe('the first screen’s data inside the page', () => {
  let t: TestApp;
  let clientDir: string;
  beforeEach(async () => {
    clientDir = mkdtempSync(path.join(tmpdir(), 'jalsa-client-'));
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html><head><title>Jalsa</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestAppOn(testEngine(), {}, { clientDir });
  });
  afterEach(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('an event page carries events.byId, and a name with </script> cannot end the block', async () => {
    const attack = '</script><script>alert(1)</script>';
    const ev = await createTicketedEventOn(t.deps.db, { name: attack });
    const html = await (await t.request(`/events/${ev.eventId}`)).text();

    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<script/g)).toHaveLength(1);
    const [query, ...rest] = firstData(html);
    expect(rest).toEqual([]);
    const api = await callProcedure(t, 'query', 'events.byId', { id: ev.eventId });
    expect(query).toEqual({ path: 'events.byId', input: { id: ev.eventId }, data: api.data });
    expect(query?.data).toMatchObject({ name: attack });
  });

  it('the home page carries the default city’s listing, or the one the city cookie names', async () => {
    await createTicketedEventOn(t.deps.db, { name: 'Bombay Jazz', city: 'Mumbai' });

    const [byDefault] = firstData(await (await t.request('/')).text());
    const delhi = await callProcedure(t, 'query', 'events.home', { city: 'Delhi/NCR' });
    expect(byDefault).toEqual({ path: 'events.home', input: { city: 'Delhi/NCR' }, data: delhi.data });

    const [mumbai] = firstData(
      await (await t.request('/', { headers: { cookie: 'selectedCity=Mumbai' } })).text(),
    );
    const api = await callProcedure(t, 'query', 'events.home', { city: 'Mumbai' });
    expect(mumbai).toEqual({ path: 'events.home', input: { city: 'Mumbai' }, data: api.data });
    expect(JSON.stringify(mumbai?.data)).toContain('Bombay Jazz');

    // A cookie naming no listed city is not an input the server runs: the default is used.
    const [unknown] = firstData(
      await (await t.request('/', { headers: { cookie: 'selectedCity=%3Cb%3ENowhere' } })).text(),
    );
    expect(unknown?.input).toEqual({ city: 'Delhi/NCR' });
  });

  it('other pages, and an event that is not there, carry none', async () => {
    expect(await (await t.request('/contact-us')).text()).not.toMatch(BLOCK);
    expect(await (await t.request('/events/evt-missing')).text()).not.toMatch(BLOCK);
  });
});
