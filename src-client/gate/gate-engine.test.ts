import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { GateElsewhere, GateFeedEntry, GateListTicket } from '../../shared/gate-schemas.ts';
import { signTicketToken, ticketPublicKey } from '../../src-server/services/tickets/ticket-token.ts';
import { signLegacyTicketToken } from '../../test/helpers/legacy-ticket-token.ts';
import { type GateApi, GateEngine, Unreachable } from './gate-engine.ts';
import { GateStore } from './gate-store.ts';

const SECRET = 'engine-test-secret-0123456789abcdef0123';
const place = { eventId: 'ev1', slotId: 'slot1', gate: 'North gate', deviceId: 'd1' };

/** A stand-in server: the slot's list, a feed the test appends to, and a switch for the network. */
function fakeServer(tickets: GateListTicket[], elsewhere: GateElsewhere[] = []) {
  const feed: GateFeedEntry[] = [];
  const uploads: unknown[][] = [];
  let up = true;
  const reachable = () => {
    if (!up) throw new Unreachable('offline');
  };
  const api: GateApi = {
    sync: async (input) => {
      reachable();
      const from = input.feedCursor ?? 0;
      const full = (input.ticketCursor ?? 0) === 0;
      return {
        slot: { id: 'slot1', start: '2026-12-05T13:30:00.000Z', end: '2026-12-05T17:30:00.000Z' },
        publicKey: ticketPublicKey(SECRET),
        // Like the server: a delta resends the cancelled and transferred tickets (no new tickets here).
        tickets: full ? tickets : tickets.filter((r) => r[5] === 1 || (r[7] ?? 0) > 0),
        elsewhere: full ? elsewhere : [],
        ticketCursor: tickets.length,
        feed: full ? [] : feed.filter((f) => f[0] > from),
        feedCursor: feed.length,
        more: false,
        counters: { expected: 6, admitted: 0, gates: [] },
        doubleEntries: [],
      };
    },
    scan: async () => {
      reachable();
      throw new Error('online scans are not part of this test');
    },
    upload: async (input) => {
      reachable();
      uploads.push(input.scans);
      return input.scans.map((s) => ({
        scanId: s.scanId,
        status: 'new' as const,
        counted: s.persons,
        excess: 0,
      }));
    },
    undo: async () => {
      throw new Error('not used');
    },
  };
  return {
    api,
    feed,
    uploads,
    setOnline: (value: boolean) => {
      up = value;
    },
  };
}

describe('the gate device offline', () => {
  it('learns of a transfer from the next delta: the old QR is refused ("Ticket was transferred"), the new one admits', async () => {
    const tickets: GateListTicket[] = [['JB2', 'Kabir', 'Gold', 3, 0, 0, '3210']];
    const server = fakeServer(tickets);
    const store = await GateStore.open(`t-${randomUUID()}`);
    const engine = new GateEngine(store, server.api, place, () => new Date('2026-12-05T13:34:00.000Z'));
    await engine.start();
    // Kabir gives the booking to Meera: the server's list now carries the new holder and generation 1.
    tickets[0] = ['JB2', 'Meera', 'Gold', 3, 0, 0, '3211', 1];
    await engine.sync();
    expect(engine.ticket('JB2')).toMatchObject({ name: 'Meera', generation: 1 });

    server.setOnline(false);
    await engine.sync();
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB2') })).toMatchObject({
      kind: 'refuse',
      message: 'Ticket was transferred',
      offline: true,
    });
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB2', 1) }, 2)).toMatchObject({
      kind: 'admit',
      persons: 2,
      offline: true,
    });
    // A reload keeps the generation (the device's storage).
    const again = new GateEngine(store, server.api, place);
    await again.start();
    expect(again.ticket('JB2')).toMatchObject({ generation: 1 });
  });

  it('a group ticket with one entry left asks how many, online and offline: never consumed without a tap (issue 35)', async () => {
    // A 2-person pass, one of them in: a re-read of its QR must not let the partner in by itself.
    const server = fakeServer([['JB5', 'Nila', 'Duo', 2, 1, 0]]);
    const store = await GateStore.open(`t-${randomUUID()}`);
    const engine = new GateEngine(store, server.api, place, () => new Date('2026-12-05T13:34:00.000Z'));
    await engine.start();
    const token = signTicketToken(SECRET, 'JB5');
    // Online: asked from the list, before any call to the server (whose scan would throw here).
    expect(await engine.scan({ token })).toMatchObject({ kind: 'ask', remaining: 1 });
    server.setOnline(false);
    await engine.sync();
    expect(await engine.scan({ token })).toMatchObject({ kind: 'ask', remaining: 1 });
    expect(engine.state.queued).toBe(0);
    // The tap: "Admit 1".
    expect(await engine.scan({ token }, 1)).toMatchObject({ kind: 'admit', persons: 1, offline: true });
  });

  it('decides from the list and its own admissions, queues with unique ids, sends once, and never counts its own scan twice', async () => {
    const server = fakeServer([
      ['JB1', 'Asha', 'Gold', 1, 0, 0],
      ['JB2', 'Kabir', 'Gold', 3, 0, 0],
      ['JB3', 'Gone', 'Gold', 2, 0, 1],
    ]);
    const store = await GateStore.open(`t-${randomUUID()}`);
    const engine = new GateEngine(store, server.api, place, () => new Date('2026-12-05T13:34:00.000Z'));
    await engine.start();
    expect(engine.state).toMatchObject({ ready: true, tickets: 3, online: true });

    server.setOnline(false);
    await engine.sync();
    expect(engine.state.online).toBe(false);

    const token = signTicketToken(SECRET, 'JB1');
    expect(await engine.scan({ token })).toMatchObject({ kind: 'admit', persons: 1, offline: true });
    expect(await engine.scan({ token })).toMatchObject({
      kind: 'refuse',
      message: 'Already used at North gate, 19:04',
    });
    // Altered, or signed with another key: invalid; a signed ticket of none of the synced slots: another
    // event's or booked since the sync (the device cannot tell); cancelled.
    expect(await engine.scan({ token: `${token.slice(0, -2)}AA` })).toMatchObject({
      kind: 'refuse',
      message: 'Invalid ticket',
    });
    expect(
      await engine.scan({ token: signTicketToken('other-secret-0123456789abcdef012345', 'JB1') }),
    ).toMatchObject({
      kind: 'refuse',
      message: 'Invalid ticket',
    });
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB9') })).toMatchObject({
      kind: 'refuse',
      message: 'Not in this event’s list at the last sync (another event, or booked since)',
    });
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB3') })).toMatchObject({
      message: 'Cancelled booking',
    });
    // A first-release token: trusted offline only for a listed booking.
    expect(await engine.scan({ token: signLegacyTicketToken(SECRET, 'JB9') })).toMatchObject({
      message: 'Invalid ticket',
    });
    // Several entries: asks, then admits the chosen number.
    const ask = await engine.scan({ token: signTicketToken(SECRET, 'JB2') });
    expect(ask).toMatchObject({ kind: 'ask', remaining: 3 });
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB2') }, 2, ask.scanId)).toMatchObject({
      kind: 'admit',
      persons: 2,
    });
    expect(engine.state.queued).toBe(8);

    // Back online: the queue goes up once; the server's feed then lists our own admissions, not counted again.
    server.setOnline(true);
    await engine.sync();
    expect(server.uploads.flat()).toHaveLength(8);
    expect(engine.state.queued).toBe(0);
    const admitted = server.uploads
      .flat()
      .filter((s) => (s as { decision: string }).decision === 'admit') as {
      scanId: string;
      persons: number;
    }[];
    for (const a of admitted)
      server.feed.push([
        server.feed.length + 1,
        a.scanId,
        a.persons === 1 ? 'JB1' : 'JB2',
        a.persons,
        'North gate',
        '2026-12-05T13:34:00.000Z',
      ]);
    await engine.sync();
    expect(engine.ticket('JB1')?.admitted).toBe(1);
    expect(engine.ticket('JB2')?.admitted).toBe(2);
    await engine.sync();
    expect(server.uploads.flat()).toHaveLength(8);

    // Another gate's admission arrives by the feed: this device now refuses the rest.
    server.feed.push([
      server.feed.length + 1,
      'other-scan',
      'JB2',
      1,
      'South gate',
      '2026-12-05T13:40:00.000Z',
    ]);
    await engine.sync();
    server.setOnline(false);
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB2') })).toMatchObject({
      message: 'Already used at South gate, 19:10',
    });

    // Reopened (page reload): list, cursors and what was counted come back from IndexedDB.
    const again = new GateEngine(store, server.api, place);
    await again.start();
    expect(again.ticket('JB2')?.admitted).toBe(3);
    expect(again.state.queued).toBe(1);
    store.close();
  });

  it('offline, names the slot of the event’s other tickets and tells another event’s ticket apart, old tokens too', async () => {
    const server = fakeServer(
      [['JB1', 'Asha', 'Gold', 1, 0, 0]],
      [
        ['2026-12-12T13:30:00.000Z', ['JB5', 'JB6']],
        ['2026-12-13T04:45:00.000Z', ['JB7']],
      ],
    );
    const store = await GateStore.open(`t-${randomUUID()}`);
    const engine = new GateEngine(store, server.api, place);
    await engine.start();
    server.setOnline(false);
    const shown = async (token: string) => ((await engine.scan({ token })) as { message: string }).message;
    expect(await shown(signTicketToken(SECRET, 'JB6'))).toBe('Ticket for Sat 12 Dec, 7 PM slot');
    expect(await shown(signTicketToken(SECRET, 'JB7'))).toBe('Ticket for Sun 13 Dec, 10:15 AM slot');
    expect(await shown(signTicketToken(SECRET, 'JB8'))).toBe(
      'Not in this event’s list at the last sync (another event, or booked since)',
    );
    // A first-release token cannot be verified here: a booking of the event's other slot is named, any
    // other is invalid (it could be forged).
    expect(await shown(signLegacyTicketToken(SECRET, 'JB5'))).toBe('Ticket for Sat 12 Dec, 7 PM slot');
    expect(await shown(signLegacyTicketToken(SECRET, 'JB8'))).toBe('Invalid ticket');
    // An altered ticket of the other slot stays invalid.
    const altered = signTicketToken(SECRET, 'JB6');
    expect(await shown(`${altered.slice(0, -2)}AA`)).toBe('Invalid ticket');

    // Kept on the device: a reload offline still names the slot.
    const again = new GateEngine(store, server.api, place);
    await again.start();
    expect(
      ((await again.scan({ token: signTicketToken(SECRET, 'JB5') })) as { message: string }).message,
    ).toBe('Ticket for Sat 12 Dec, 7 PM slot');
    store.close();
  });

  it('a list kept from before the sync carried the other slots is downloaded whole once, then by deltas', async () => {
    const server = fakeServer([['JB1', 'Asha', 'Gold', 1, 0, 0]], [['2026-12-12T13:30:00.000Z', ['JB5']]]);
    const cursors: number[] = [];
    const sync = server.api.sync;
    server.api.sync = (input) => {
      cursors.push(input.ticketCursor ?? 0);
      return sync(input);
    };
    const store = await GateStore.open(`t-${randomUUID()}`);
    await store.saveMeta({
      slotId: 'slot1',
      eventId: 'ev1',
      ticketCursor: 1,
      feedCursor: 0,
      publicKey: ticketPublicKey(SECRET),
      slotStart: '2026-12-05T13:30:00.000Z',
      syncedAt: '2026-12-05T12:00:00.000Z',
    });
    await store.saveTickets('slot1', [
      { id: 'JB1', name: 'Asha', type: 'Gold', allowed: 1, admitted: 0, cancelled: false },
    ]);
    const engine = new GateEngine(store, server.api, place);
    await engine.start();
    await engine.sync();
    expect(cursors).toEqual([0, 1]);
    server.setOnline(false);
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB5') })).toMatchObject({
      message: 'Ticket for Sat 12 Dec, 7 PM slot',
    });
    store.close();
  });

  it('learns a cancellation at the next delta sync and refuses the ticket offline', async () => {
    const tickets: GateListTicket[] = [['JB1', 'Asha', 'Gold', 2, 0, 0]];
    const server = fakeServer(tickets);
    const store = await GateStore.open(`t-${randomUUID()}`);
    const engine = new GateEngine(store, server.api, place, () => new Date('2026-12-05T13:34:00.000Z'));
    await engine.start();
    expect(engine.ticket('JB1')?.cancelled).toBe(false);

    tickets[0] = ['JB1', 'Asha', 'Gold', 2, 0, 1];
    await engine.sync();
    server.setOnline(false);
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB1') })).toMatchObject({
      kind: 'refuse',
      message: 'Cancelled booking',
    });
    // Kept on the device: a reload still knows.
    const again = new GateEngine(store, server.api, place);
    await again.start();
    expect(again.ticket('JB1')?.cancelled).toBe(true);
    store.close();
  });

  it('looks a ticket up offline by booking id, name, or the end of the mobile (the list holds its last four digits)', async () => {
    const tickets: GateListTicket[] = [
      ['JB1', 'Asha Rao', 'Gold', 2, 0, 0, '3210'],
      ['JB2', 'Kabir', 'Gold', 1, 0, 0, '7788'],
      // A list downloaded before the digits were added.
      ['JB3', 'Meera', 'Silver', 1, 0, 0],
    ];
    const server = fakeServer(tickets);
    const store = await GateStore.open(`t-${randomUUID()}`);
    const engine = new GateEngine(store, server.api, place);
    await engine.start();
    server.setOnline(false);
    const ids = (q: string) => engine.lookUpLocally(q).map((t) => t.id);
    expect(ids('98765 43210')).toEqual(['JB1']);
    expect(ids('7788')).toEqual(['JB2']);
    expect(ids('kabir')).toEqual(['JB2']);
    expect(ids('jb3')).toEqual(['JB3']);
    expect(ids('0000')).toEqual([]);
    // A booking id that holds a mobile's last four digits is not that mobile.
    expect(ids('jb7788')).toEqual([]);
    // Kept on the device: a reload still finds by mobile.
    const again = new GateEngine(store, server.api, place);
    await again.start();
    expect(again.lookUpLocally('+91 98765 43210').map((t) => t.id)).toEqual(['JB1']);
    store.close();
  });
});
