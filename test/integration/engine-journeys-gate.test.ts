import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_MESSAGES } from '../../shared/gate-schemas.ts';
import type { MergedScan } from '../../src-server/services/gate/merge-offline-scans.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { type JourneyWorld, journeyWorld } from '../helpers/journey-world.ts';
import { enginesFor } from '../helpers/test-app.ts';

// Issue 38: journeys proved service by service on both engines (engine-refunds, engine-gate-*) now end to
// end through the app on each, everything set up over its HTTP/tRPC interface (test/helpers/journey-world.ts).
// Here the door: a transfer (the old QR refused, the new one admitted), the volunteer's online scans and
// the offline device's download and upload.

const engines = enginesFor('engine-journeys-gate.test.ts');

describe.each(engines)('gate journeys through the app on %s', (engine) => {
  let w: JourneyWorld;
  beforeAll(async () => {
    w = await journeyWorld(engine);
  }, 30_000);
  afterAll(async () => {
    await w?.t.close();
  });

  it('a ticket is sent to a friend, who accepts it on their own account: the old QR no longer admits, the new one does', async () => {
    const sender = await w.newBuyer();
    const { bookingId } = await w.purchase(sender.cookie, 1);
    const oldQr = await w.qrOf(bookingId, sender.cookie);
    const listBefore = await w.syncList();
    await w.site.ok(
      'mutation',
      'transfers.start',
      { bookingId, name: 'Kavya Friend', email: 'kavya@example.in', mobile: '' },
      sender.cookie,
    );
    const offer = await w.mailTo('kavya@example.in');
    const token = /\/transfers\/([\w-]+)/.exec(offer?.text ?? '')![1]!;
    const friend = await w.site.signUpAndSignIn('Kavya Friend', 'kavya@example.in');
    const accepted = await w.site.ok('mutation', 'transfers.accept', { token }, friend.cookie);
    expect(accepted.data).toEqual({ bookingId });
    expect(await w.bookingRow(bookingId)).toMatchObject({ userEmail: 'kavya@example.in', transferCount: 1 });
    expect((await w.site.ok<unknown[]>('query', 'bookings.mine', undefined, sender.cookie)).data).toEqual([]);

    const newQr = await w.qrOf(bookingId, friend.cookie);
    expect(newQr).not.toBe(oldQr);
    // An offline device's next delta carries the new holder and the token's generation (1).
    const delta = await w.syncList({
      ticketCursor: listBefore.ticketCursor,
      feedCursor: listBefore.feedCursor,
    });
    const resent = delta.tickets.find((ticket) => ticket[0] === bookingId);
    expect(resent?.[1]).toBe('Kavya Friend');
    expect(resent?.[7]).toBe(1);
    expect(await w.scan(oldQr)).toMatchObject({ outcome: 'refuse', message: GATE_MESSAGES.transferred });
    expect(await w.scan(newQr)).toMatchObject({ outcome: 'admit', persons: 1 });
  });

  it('at the gate: a valid ticket admitted, the same again already used, a forged QR refused', async () => {
    const buyer = await w.newBuyer();
    const { bookingId } = await w.purchase(buyer.cookie, 1);
    const qr = await w.qrOf(bookingId, buyer.cookie);
    expect(await w.scan(qr)).toMatchObject({ outcome: 'admit', persons: 1, ticket: { admitted: 1 } });
    expect(await w.scan(qr)).toMatchObject({
      outcome: 'refuse',
      message: expect.stringMatching(/^Already used at North gate/),
    });
    // A QR signed with another key for this very booking, and one that is not a ticket at all.
    const forged = signTicketToken('forger-secret-0123456789abcdef0123456789abcdef', bookingId);
    expect(forged).not.toBe(qr);
    expect(await w.scan(forged)).toMatchObject({ outcome: 'refuse', message: GATE_MESSAGES.invalid });
    expect(await w.scan(`${qr.slice(0, -4)}AAAA`)).toMatchObject({ outcome: 'refuse' });
    expect(await w.bookingRow(bookingId)).toMatchObject({ numberOfUserCheckedIn: 1 });
    // A buyer (no place on the gate team) may not scan at all.
    const stranger = await w.site.call(
      'mutation',
      'gate.scan',
      {
        eventId: w.show.eventId,
        slotId: w.show.slotId,
        gate: 'North gate',
        deviceId: 'd',
        scanId: randomUUID(),
        token: qr,
        persons: 1,
      },
      buyer.cookie,
    );
    expect(stranger.status).toBe(404);
  });

  it('offline at the gate: the device downloads the list, uploads scans made offline, the counts come out right', async () => {
    const sync = w.syncList;
    const a = await w.purchase((await w.newBuyer()).cookie, 2);
    const b = await w.purchase((await w.newBuyer()).cookie, 1);
    const list = await sync();
    const listed = new Map(list.tickets.map((ticket) => [ticket[0], ticket]));
    // [bookingId, holder, type, persons allowed, admitted, cancelled, …]
    expect(listed.get(a.bookingId)).toEqual(expect.arrayContaining([a.bookingId]));
    expect(listed.get(a.bookingId)?.slice(3, 6)).toEqual([2, 0, 0]);
    expect(listed.get(b.bookingId)?.slice(3, 6)).toEqual([1, 0, 0]);
    const admittedBefore = list.counters.admitted;

    // The device admitted a's two people and b's one while offline, then b's again at another gate.
    const at = (minutesAgo: number) =>
      new Date(w.t.clock.now().getTime() - minutesAgo * 60_000).toISOString();
    const qrA = signTicketToken(w.t.deps.appSecret, a.bookingId);
    const qrB = signTicketToken(w.t.deps.appSecret, b.bookingId);
    const scans = [
      { scanId: randomUUID(), token: qrA, decision: 'admit', persons: 2, scannedAt: at(5) },
      { scanId: randomUUID(), token: qrB, decision: 'admit', persons: 1, scannedAt: at(4) },
    ];
    const upload = (gate: string, batch: typeof scans) =>
      w.site.ok<MergedScan[]>(
        'mutation',
        'gate.upload',
        { eventId: w.show.eventId, slotId: w.show.slotId, gate, deviceId: `phone-${gate}`, scans: batch },
        w.gateStaff,
      );
    expect((await upload('North gate', scans)).data).toMatchObject([
      { status: 'new', counted: 2, excess: 0 },
      { status: 'new', counted: 1, excess: 0 },
    ]);
    // The same batch sent again (the answer was lost) changes nothing.
    expect((await upload('North gate', scans)).data).toMatchObject([
      { status: 'known' },
      { status: 'known' },
    ]);
    const again = [{ scanId: randomUUID(), token: qrB, decision: 'admit', persons: 1, scannedAt: at(2) }];
    expect((await upload('South gate', again)).data).toMatchObject([
      { status: 'new', counted: 0, excess: 1 },
    ]);

    const after = await sync({ ticketCursor: list.ticketCursor, feedCursor: list.feedCursor });
    expect(after.counters.admitted).toBe(admittedBefore + 3);
    expect(after.counters.gates).toEqual(
      expect.arrayContaining([{ gate: 'South gate', admitted: 0, excess: 1 }]),
    );
    expect(after.doubleEntries.map((d) => d.bookingId)).toEqual([b.bookingId]);
    expect(await w.bookingRow(a.bookingId)).toMatchObject({ numberOfUserCheckedIn: 2 });
    expect(await w.bookingRow(b.bookingId)).toMatchObject({ numberOfUserCheckedIn: 1 });
    // Online, the ticket admitted offline is now used.
    expect(await w.scan(qrA)).toMatchObject({ outcome: 'refuse' });
  });
});
