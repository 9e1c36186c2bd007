import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { startInput } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import {
  createTicketedEventOn,
  expectInventoryInvariantOn,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const holdCount = async (t: TestApp) => (await t.deps.db.select().from(tablesOf(t.deps.db).holds)).length;

describe('the storefront shows published events only', () => {
  let t: TestApp;
  let ev: TicketedEvent;
  let clientDir: string;
  beforeEach(async () => {
    // The server renders pages (with their link-preview tags) around the client's index.html; a minimal
    // one stands in for the build.
    clientDir = mkdtempSync(path.join(tmpdir(), 'jalsa-client-'));
    writeFileSync(
      path.join(clientDir, 'index.html'),
      '<!doctype html><html><head><title>Jalsa</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestAppOn(testEngine(), {}, { clientDir });
    ev = await createTicketedEventOn(t.deps.db, { name: 'Hidden Raga Night' });
  });
  afterEach(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const listed = async () => {
    const list = await callProcedure(t, 'query', 'events.list', { city: 'Mumbai' });
    const search = await callProcedure(t, 'query', 'events.search', { q: 'Hidden Raga' });
    return [list, search].map((r) => (r.data as { id: string }[]).some((e) => e.id === ev.eventId));
  };

  for (const status of ['draft', 'cancelled'] as const) {
    it(`a ${status} event is absent from lists, search, link previews, ticket options and Proceed`, async () => {
      expect(await listed()).toEqual([true, true]);
      // Published, its page (the link preview's source) carries the name: the check below means something.
      expect(await (await t.request(`/events/${ev.eventId}`)).text()).toContain('Hidden Raga Night');
      const { events } = tablesOf(t.deps.db);
      await t.deps.db.update(events).set({ status }).where(eq(events.id, ev.eventId));

      expect(await listed()).toEqual([false, false]);
      const detail = await callProcedure(t, 'query', 'events.byId', { id: ev.eventId });
      if (status === 'draft') expect(detail.body.error?.data.code).toBe('NOT_FOUND');
      // Its buyers follow links to a cancelled event: the page is there and says so.
      else expect(detail.data).toMatchObject({ id: ev.eventId, status: 'cancelled' });
      const options = await callProcedure(t, 'query', 'tickets.options', { eventId: ev.eventId });
      expect(options.body.error?.data.code).toBe('NOT_FOUND');
      // Link previews and crawlers: no page the server renders names it, the team's preview included
      // (its data comes only from the signed-in organiser.preview), nor a sitemap should there be one.
      for (const path of [
        `/events/${ev.eventId}`,
        `/event/${ev.eventId}`,
        `/organiser/events/${ev.eventId}/preview`,
        '/sitemap.xml',
      ]) {
        expect(await (await t.request(path)).text(), path).not.toContain('Hidden Raga Night');
      }
      const preview = await callProcedure(t, 'query', 'organiser.preview', { eventId: ev.eventId });
      expect(preview.status).toBe(401);

      const buyer = await signedInUser(t);
      const start = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 1), {
        cookie: buyer.cookie,
      });
      expect(start.body.error?.data.code).toBe('NOT_FOUND');
      expect(await holdCount(t)).toBe(0);
    });
  }
});

describe('sale windows and per-order maximums are enforced at Proceed', () => {
  let t: TestApp;
  let ev: TicketedEvent;
  let cookie: string;
  beforeEach(async () => {
    // The test clock reads 2026-11-21T06:30Z.
    t = await createTestAppOn(testEngine());
    ev = await createTicketedEventOn(t.deps.db, {
      types: [{ name: 'Gold', pricePaise: 50_000, totalTickets: 20 }],
    });
    cookie = (await signedInUser(t)).cookie;
  });
  afterEach(async () => {
    await expectInventoryInvariantOn(t.deps.db);
    await t.close();
  });

  const setType = async (values: Partial<ReturnType<typeof tablesOf>['ticketTypes']['$inferInsert']>) => {
    const { ticketTypes } = tablesOf(t.deps.db);
    await t.deps.db.update(ticketTypes).set(values).where(eq(ticketTypes.id, ev.ticketTypeIds[0]!));
  };
  const start = (quantity: number) =>
    callProcedure(t, 'mutation', 'payments.start', startInput(ev, quantity), { cookie });

  it('refuses a type whose sale has not opened, with the opening time in India time', async () => {
    await setType({ saleOpensAt: '2026-11-22T04:30:00.000Z' });
    const res = await start(1);
    expect(res.body.error?.data.code).toBe('CONFLICT');
    expect(res.body.error?.message).toBe('Gold: Sale opens 22 Nov 2026, 10:00 AM');
    expect(await holdCount(t)).toBe(0);
  });

  it('refuses a type whose sale has closed', async () => {
    await setType({ saleClosesAt: '2026-11-21T06:30:00.000Z' });
    const res = await start(1);
    expect(res.body.error?.message).toBe('Gold: Sales closed');
    expect(await holdCount(t)).toBe(0);
  });

  it('holds a type inside its window', async () => {
    await setType({ saleOpensAt: '2026-11-21T06:00:00.000Z', saleClosesAt: '2026-11-21T07:00:00.000Z' });
    const res = await start(2);
    expect(res.status).toBe(200);
    expect(await holdCount(t)).toBe(1);
  });

  it("refuses more than the type's per-order maximum", async () => {
    await setType({ maxPerOrder: 2 });
    const res = await start(3);
    expect(res.body.error?.data.code).toBe('BAD_REQUEST');
    expect(res.body.error?.message).toBe('You can book at most 2 tickets of Gold');
    expect((await start(2)).status).toBe(200);
  });

  // Issue 39: one rule and one message wherever the maximum is checked (the input schema, Proceed, the
  // reservation, the waiting list), never the platform's limit above the organiser's.
  it("refuses more than the platform's maximum in the same words, whatever the organiser set", async () => {
    await setType({ maxPerOrder: 50 });
    const res = await start(11);
    expect(res.body.error?.data.code).toBe('BAD_REQUEST');
    expect(res.body.error?.message).toContain('You can book at most 10 tickets of one type');
    expect(await holdCount(t)).toBe(0);
  });

  it('the ticket options carry the window so the page can say why a type cannot be bought', async () => {
    await setType({ saleOpensAt: '2026-11-22T04:30:00.000Z' });
    const res = await callProcedure(t, 'query', 'tickets.options', { eventId: ev.eventId });
    const type = (res.data as { dates: { slots: { ticketTypes: object[] }[] }[] }).dates[0]!.slots[0]!
      .ticketTypes[0];
    expect(type).toMatchObject({
      saleOpensAt: '2026-11-22T04:30:00.000Z',
      saleClosesAt: null,
      maxPerOrder: 10,
    });
  });
});
