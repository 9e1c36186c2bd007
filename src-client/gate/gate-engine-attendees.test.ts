import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { GateListTicket } from '../../shared/gate-schemas.ts';
import {
  signAttendeeTicketToken,
  signTicketToken,
  ticketPublicKey,
} from '../../src-server/services/tickets/ticket-token.ts';
import { type GateApi, GateEngine, Unreachable } from './gate-engine.ts';
import { GateStore } from './gate-store.ts';

const SECRET = 'engine-attendee-secret-0123456789abcdef';
const place = { eventId: 'ev1', slotId: 'slot1', gate: 'North gate', deviceId: 'd1' };

/** An offline-only stand-in server: it answers the first sync, then the network is gone. */
function offlineAfterFirstSync(tickets: GateListTicket[]): GateApi {
  let synced = false;
  const unreachable = () => {
    throw new Unreachable('offline');
  };
  return {
    sync: async () => {
      if (synced) unreachable();
      synced = true;
      return {
        slot: { id: 'slot1', start: '2026-12-05T13:30:00.000Z', end: '2026-12-05T17:30:00.000Z' },
        publicKey: ticketPublicKey(SECRET),
        tickets,
        elsewhere: [],
        ticketCursor: tickets.length,
        feed: [],
        feedCursor: 0,
        more: false,
        counters: { expected: 4, admitted: 0, gates: [] },
        doubleEntries: [],
      };
    },
    scan: async () => unreachable(),
    upload: async () => unreachable(),
    undo: async () => unreachable(),
  };
}

describe('the gate device offline with one QR per attendee (ADR 0046)', () => {
  it('verifies each attendee’s QR, admits each once under its own ticket, and refuses the booking QR and a cancelled attendee', async () => {
    const attendee = (position: number) => ({ ticketTypeId: 'tt-gold', position });
    const server = offlineAfterFirstSync([
      ['JB7', 'Buyer', 'Gold', 0, 0, 0, '3210'],
      ['JB7+tt-gold+1', 'Asha', 'Gold', 1, 0, 0, '3210'],
      ['JB7+tt-gold+2', 'Priya', 'Gold', 1, 0, 0, '3210'],
      ['JB7+tt-gold+3', 'Gone', 'Gold', 1, 0, 1, '3210'],
    ]);
    const store = await GateStore.open(`t-${randomUUID()}`);
    const engine = new GateEngine(store, server, place, () => new Date('2026-12-05T13:34:00.000Z'));
    await engine.start();
    await engine.sync();
    const token = (p: number) => signAttendeeTicketToken(SECRET, 'JB7', 0, attendee(p));

    expect(await engine.scan({ token: token(2) })).toMatchObject({
      kind: 'admit',
      persons: 1,
      offline: true,
      ticket: { name: 'Priya' },
    });
    expect(await engine.scan({ token: token(2) })).toMatchObject({ kind: 'refuse', offline: true });
    expect(await engine.scan({ token: token(1) })).toMatchObject({ kind: 'admit', ticket: { name: 'Asha' } });
    expect(await engine.scan({ token: token(3) })).toMatchObject({
      kind: 'refuse',
      message: 'Cancelled booking',
    });
    // A forged position: the signature covers it.
    const forged = token(1).replace('+tt-gold+1.', '+tt-gold+2.');
    expect(await engine.scan({ token: forged })).toMatchObject({ kind: 'refuse', message: 'Invalid ticket' });
    // The booking's QR has nobody left to admit: every ticket has its own.
    expect(await engine.scan({ token: signTicketToken(SECRET, 'JB7') })).toMatchObject({
      kind: 'refuse',
      message: 'Each person has their own QR on this booking: scan theirs',
    });
    // Every decision is queued for the server, refusals too.
    expect(engine.state.queued).toBe(6);
  });
});
