import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/client.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { createTicketedEvent, type TicketedEvent } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createSignedInUser } from '../helpers/users.ts';

// The catalogue micro-cache (src-server/http/public-query-cache.ts) must never show availability older
// than the last write, and never keep a list past its maximum age.
describe('cached public catalogue reads', () => {
  let t: TestApp;
  let ev: TicketedEvent;
  beforeEach(() => {
    t = createTestApp();
    ev = createTicketedEvent(t.deps.db);
  });
  afterEach(() => t.close());

  async function get(path: string, acceptEncoding = 'gzip, deflate, br, zstd') {
    const res = await t.request(path, { headers: { 'accept-encoding': acceptEncoding } });
    const raw = Buffer.from(await res.arrayBuffer());
    const text = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
    return { res, json: JSON.parse(text) as { result: { data: unknown } } };
  }
  const detailPath = () =>
    `/trpc/events.byId?input=${encodeURIComponent(JSON.stringify({ id: ev.eventId }))}`;
  const available = async () =>
    (
      (await get(detailPath())).json.result.data as {
        tickets: { slots: { tickets: { availableTickets: number }[] }[] }[];
      }
    ).tickets[0]!.slots[0]!.tickets[0]!.availableTickets;

  it('answers a repeat with the same body and headers, compressed for a browser', async () => {
    for (let i = 0; i < 10; i += 1) createTicketedEvent(t.deps.db);
    const first = await get('/trpc/events.list');
    const second = await get('/trpc/events.list');
    expect(second.json).toEqual(first.json);
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get('content-encoding')).toBe('gzip');
    expect(second.res.headers.get('content-type')).toBe(first.res.headers.get('content-type'));
    // Security headers are added on cached answers too.
    expect(second.res.headers.get('x-content-type-options')).toBe('nosniff');
    // A client that accepts no compression gets plain JSON.
    const plain = await get('/trpc/events.list', '');
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.json).toEqual(first.json);
  });

  it('sends answers under 1 KB uncompressed, with their length', async () => {
    const res = await t.request('/trpc/payments.config', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe((await res.arrayBuffer()).byteLength);
  });

  it('shows the seats a reservation took on the very next read', async () => {
    expect(await available()).toBe(50);
    const buyer = createSignedInUser(t);
    await proceed(t, buyer.cookie, ev, 3);
    expect(await available()).toBe(47);
    await proceed(t, createSignedInUser(t).cookie, ev, 2);
    expect(await available()).toBe(45);
  });

  it('sees a write made by another process (another connection to the same file)', async () => {
    expect(await available()).toBe(50);
    const other = new Database(`${t.dataDir}/jalsa.db`);
    try {
      other.prepare('update ticket_types set available_tickets = 7 where id = ?').run(ev.ticketTypeIds[0]);
    } finally {
      other.close();
    }
    expect(await available()).toBe(7);
  });

  it('drops an event from the list once it is over, with no write in between', async () => {
    const ids = async () =>
      ((await get('/trpc/events.list')).json.result.data as { id: string }[]).map((e) => e.id);
    expect(await ids()).toContain(ev.eventId);
    t.clock.set(new Date('2026-12-06T00:00:00.000Z'));
    expect(await ids()).not.toContain(ev.eventId);
  });
});

describe('compiled statement reuse (db/client.ts)', () => {
  it('reuses one statement per SQL text and resets its row mode', () => {
    const { sqlite, close } = openDatabase(':memory:');
    try {
      const first = sqlite.prepare('select 1 as one');
      expect(first.raw().get()).toEqual([1]);
      const again = sqlite.prepare('select 1 as one');
      expect(again).toBe(first);
      expect(again.get()).toEqual({ one: 1 });
      expect(sqlite.prepare('select 2 as two')).not.toBe(first);
    } finally {
      close();
    }
  });
});
