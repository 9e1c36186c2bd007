import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_MESSAGES } from '../../shared/gate-schemas.ts';
import type { DbOrTx } from '../../src-server/db/client.ts';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { row, rows } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { markEmailVerified } from '../../src-server/services/accounts/mark-email-verified.ts';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import type { MergedScan } from '../../src-server/services/gate/merge-offline-scans.ts';
import type { GateSync } from '../../src-server/services/gate/sync-slot.ts';
import { mailSenderJob } from '../../src-server/services/mail/sender.ts';
import { refundJob } from '../../src-server/services/refunds/refund-job.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { inventoryOf } from '../helpers/engine-inventory.ts';
import { watchRefunds } from '../helpers/organiser-bookings.ts';
import { storefront } from '../helpers/storefront-http.ts';
import { MUMBAI_TAX_PROFILE } from '../helpers/tax-profile.ts';
import { createTestAppOn, type Engine, type TestApp } from '../helpers/test-app.ts';
import { testPostgresUrl } from '../helpers/test-postgres.ts';
import { allowLocalServers } from '../mocks/server.ts';

// Issue 38: the journeys proved service by service on both engines (engine-refunds, engine-gate-*),
// now end to end through the app on each: everything set up over its HTTP/tRPC interface as a browser
// and the gate's device do it (sign-up, the organiser's console, the simulator's checkout, the gate
// team's invitation); only the organiser role, given by a script in production (npm run user:role), and
// a buyer's verified address (the mailed link) go through the app's services on `t.deps.db`.

const serverUrl = testPostgresUrl('engine-journeys.test.ts');
const engines: Engine[] = serverUrl ? ['sqlite', 'postgres'] : ['sqlite'];

type Site = ReturnType<typeof storefront>;
interface Show {
  eventId: string;
  dateId: string;
  slotId: string;
  ticketTypeId: string;
}

describe.each(engines)('journeys through the app on %s', (engine) => {
  let t: TestApp;
  let site: Site;
  let organiser: string;
  let gateStaff: string;
  let show: Show;
  let buyers = 0;

  beforeAll(async () => {
    allowLocalServers();
    t = await createTestAppOn(engine);
    site = storefront(t.request);
    organiser = (await site.signUpAndSignIn('Ravi Rao', 'ravi@example.in')).cookie;
    await setAccountRoleByEmail(
      t.deps.db,
      { email: 'ravi@example.in', role: 'organiser', grantedBy: null },
      t.clock.now(),
    );
    // The organiser's GST profile, as the console's profile page saves it: part refunds get credit notes.
    await site.ok('mutation', 'invoices.saveProfile', MUMBAI_TAX_PROFILE, organiser);
    show = await site.publishEvent(organiser, 'Journeys Night', 'Pune', t.clock.now(), 40);
    // A volunteer at the door: invited from the console as gate staff, accepting from the mailed link.
    gateStaff = (await site.signUpAndSignIn('Meena Door', 'door@example.in')).cookie;
    await site.ok(
      'mutation',
      'console.invite',
      { eventId: show.eventId, email: 'door@example.in', role: 'gate_staff' },
      organiser,
    );
    const invite = await mailTo('door@example.in');
    const token = /\/organiser\/invitations\/([a-z0-9]+)/.exec(invite!.text)![1]!;
    await site.ok('mutation', 'console.acceptInvitation', { token }, gateStaff);
  }, 30_000);
  afterAll(async () => {
    await t?.close();
  });

  // Reads of what the app wrote, through the engine's own tables (either engine).
  const read = <T>(steps: (db: DbOrTx) => Generator<unknown, T, unknown>) =>
    runStatements(t.deps.db, steps as never) as Promise<T>;
  const seatsLeft = async () => (await read((db) => inventoryOf(db, [show.ticketTypeId])))[0]!;
  const bookingRow = (bookingId: string) =>
    read(function* (db) {
      const { bookings } = tablesOf(db);
      return yield* row(db.select().from(bookings).where(eq(bookings.id, bookingId)));
    });
  const refundsOf = (bookingId: string) =>
    read(function* (db) {
      const { refunds } = tablesOf(db);
      return yield* rows(db.select().from(refunds).where(eq(refunds.bookingId, bookingId)));
    });
  /** What the simulator (the offline Razorpay) has refunded of a payment, by its own books. */
  const refundedByGateway = (paymentId: string) =>
    read(function* (db) {
      const { simulatorPayments } = tablesOf(db);
      const payment = yield* row(
        db
          .select({ refunded: simulatorPayments.amountRefundedPaise })
          .from(simulatorPayments)
          .where(eq(simulatorPayments.id, paymentId)),
      );
      return payment!.refunded;
    });
  /** The booking's mails in the outbox, by key, with whether the mail sender has sent them. */
  const mailsOf = (bookingId: string) =>
    read(function* (db) {
      const { outbox } = tablesOf(db);
      const all = yield* rows(db.select({ key: outbox.idempotencyKey, status: outbox.status }).from(outbox));
      return Object.fromEntries(
        all.filter((m) => m.key.endsWith(`:${bookingId}`)).map((m) => [m.key, m.status]),
      );
    });
  function mailTo(to: string) {
    return read(function* (db) {
      const { outbox } = tablesOf(db);
      return yield* row(db.select().from(outbox).where(eq(outbox.to, to)).orderBy(desc(outbox.id)).limit(1));
    });
  }

  /** A new verified buyer (Proceed needs one), signed in: their cookie. */
  async function newBuyer(email = `buyer${++buyers}@example.in`) {
    const { cookie } = await site.signUpAndSignIn(`Buyer ${buyers}`, email);
    await markEmailVerified(t.deps.db, email, t.clock.now());
    return { cookie, email };
  }

  /** A purchase through Proceed, the simulator's Pay and the confirm callback; its webhooks delivered. */
  async function purchase(cookie: string, quantity: number) {
    const { started, confirmed } = await site.buy(cookie, show, quantity);
    expect(started.status, JSON.stringify(started.error)).toBe(200);
    expect(confirmed?.data.outcome).toBe('booked');
    await simulatorWebhooksDelivered(t.deps);
    const bookingId = confirmed!.data.bookingId!;
    const booking = (await bookingRow(bookingId))!;
    return { bookingId, paymentId: booking.paymentId!, totalPaise: booking.totalAmountPaise };
  }

  const scan = async (token: string, scanId: string = randomUUID()) => {
    const answer = await site.call<GateScanResult>(
      'mutation',
      'gate.scan',
      {
        eventId: show.eventId,
        slotId: show.slotId,
        gate: 'North gate',
        deviceId: 'door-phone',
        scanId,
        token,
        persons: 1,
      },
      gateStaff,
    );
    expect(answer.status, JSON.stringify(answer.error)).toBe(200);
    return answer.data;
  };
  /** The gate device's download: the slot's list (whole, or the delta since the cursors) and counters. */
  const syncList = async (cursors: { ticketCursor?: number; feedCursor?: number } = {}) =>
    (
      await site.ok<GateSync>(
        'query',
        'gate.sync',
        { eventId: show.eventId, slotId: show.slotId, ...cursors },
        gateStaff,
      )
    ).data;
  const qrOf = async (bookingId: string, cookie: string) =>
    (await site.ok<{ qrToken: string }>('query', 'bookings.byId', { bookingId }, cookie)).data.qrToken;

  it('a buyer cancels their booking: seats back on sale at once, the refund queued and paid by the refund job', async () => {
    const buyer = await newBuyer();
    const before = await seatsLeft();
    const { bookingId, paymentId, totalPaise } = await purchase(buyer.cookie, 3);
    expect((await seatsLeft()).available).toBe(before.available - 3);

    // The gateway is down when the buyer cancels: the refund waits in the queue for the job.
    const gateway = watchRefunds(t);
    gateway.faults.push('fail');
    const quote = await site.ok<{ cancellable: boolean; refundAmountPaise: number }>(
      'query',
      'bookings.cancellationQuote',
      { bookingId },
      buyer.cookie,
    );
    expect(quote.data).toMatchObject({ cancellable: true, refundAmountPaise: totalPaise });
    const cancelled = await site.ok('mutation', 'bookings.cancel', { bookingId }, buyer.cookie);
    expect(cancelled.data).toEqual({ cancelled: true, refundAmountPaise: totalPaise });
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', cancelReason: 'buyer' });
    expect(await seatsLeft()).toMatchObject({ available: before.available, sold: before.sold });
    expect(await refundsOf(bookingId)).toMatchObject([
      {
        status: 'pending',
        reason: 'buyer_cancelled',
        amountPaise: totalPaise,
        lastError: 'Gateway answered 502',
      },
    ]);
    expect(await refundedByGateway(paymentId)).toBe(0);

    // The job, after the retry's back-off: the simulator pays it back, once, and the buyer is told.
    t.clock.advance(31_000);
    await refundJob.run(t.deps);
    await refundJob.run(t.deps);
    expect(await refundsOf(bookingId)).toMatchObject([{ status: 'processed', attempts: 2, lastError: null }]);
    expect(await refundedByGateway(paymentId)).toBe(totalPaise);
    expect(gateway.calls).toHaveLength(2);
    // The mail sender's job sends the cancellation and the refund mails.
    await mailSenderJob.run(t.deps);
    expect(await mailsOf(bookingId)).toMatchObject({
      [`booking-cancelled:${bookingId}`]: 'sent',
      [`booking-refunded:${bookingId}`]: 'sent',
    });
    // Cancelling again refunds nothing more and puts no seat back twice.
    expect((await site.ok('mutation', 'bookings.cancel', { bookingId }, buyer.cookie)).data).toEqual({
      cancelled: false,
      refundAmountPaise: 0,
    });
    expect(await seatsLeft()).toMatchObject({ available: before.available });
    // The seats are on sale again: another buyer gets them.
    const next = await newBuyer();
    await purchase(next.cookie, 3);
    expect((await seatsLeft()).available).toBe(before.available - 3);
  });

  it('the organiser cancels a booking with a full refund, and refunds part of another', async () => {
    const before = await seatsLeft();
    const full = await purchase((await newBuyer()).cookie, 2);
    const cancelled = await site.ok(
      'mutation',
      'eventBookings.cancel',
      { eventId: show.eventId, bookingId: full.bookingId },
      organiser,
    );
    expect(cancelled.data).toEqual({ cancelled: true });
    expect(await refundsOf(full.bookingId)).toMatchObject([
      { status: 'processed', amountPaise: full.totalPaise },
    ]);
    expect(await refundedByGateway(full.paymentId)).toBe(full.totalPaise);
    expect(await seatsLeft()).toMatchObject({ available: before.available });
    const page = await site.ok<{ status: string; refund: { status: string } }>(
      'query',
      'eventBookings.booking',
      { eventId: show.eventId, bookingId: full.bookingId },
      organiser,
    );
    expect(page.data).toMatchObject({ status: 'cancelled', refund: { status: 'processed' } });

    // A part refund: ₹200 back of a booking that stays confirmed, its seats still sold. The gateway
    // fails the first call: the part waits for the refund job, which pays it after the back-off.
    const part = await purchase((await newBuyer()).cookie, 2);
    const gateway = watchRefunds(t);
    gateway.faults.push('fail');
    const refunded = await site.ok<{ refundPartId: string; amountPaise: number }>(
      'mutation',
      'eventBookings.refundPart',
      { eventId: show.eventId, bookingId: part.bookingId, amountPaise: 20_000, reason: 'Sound failed' },
      organiser,
    );
    expect(refunded.data).toMatchObject({ amountPaise: 20_000 });
    const partRow = () =>
      read(function* (db) {
        const { refundParts } = tablesOf(db);
        return yield* row(
          db.select().from(refundParts).where(eq(refundParts.id, refunded.data.refundPartId)),
        );
      });
    expect(await partRow()).toMatchObject({ status: 'pending', lastError: 'Gateway answered 502' });
    expect(await refundedByGateway(part.paymentId)).toBe(0);
    t.clock.advance(31_000);
    await refundJob.run(t.deps);
    expect(await partRow()).toMatchObject({ status: 'processed', lastError: null });
    expect(await refundedByGateway(part.paymentId)).toBe(20_000);
    expect(gateway.calls.filter((c) => c.paymentId === part.paymentId)).toHaveLength(2);
    const parts = await read(function* (db) {
      const { refundParts, partialCreditNotes } = tablesOf(db);
      const made = yield* rows(
        db.select().from(refundParts).where(eq(refundParts.bookingId, part.bookingId)),
      );
      const notes = yield* rows(
        db
          .select({ totalPaise: partialCreditNotes.totalPaise })
          .from(partialCreditNotes)
          .where(eq(partialCreditNotes.refundPartId, refunded.data.refundPartId)),
      );
      return { made, notes };
    });
    expect(parts.made).toMatchObject([{ amountPaise: 20_000 }]);
    expect(parts.notes.reduce((sum, n) => sum + n.totalPaise, 0)).toBe(20_000);
    expect(await bookingRow(part.bookingId)).toMatchObject({ status: 'confirmed' });
    expect((await seatsLeft()).available).toBe(before.available - 2);
    // More than is left is refused, and nothing more goes back.
    const beyond = await site.call(
      'mutation',
      'eventBookings.refundPart',
      { eventId: show.eventId, bookingId: part.bookingId, amountPaise: part.totalPaise, reason: 'Again' },
      organiser,
    );
    expect(beyond.status).toBe(400);
    expect(beyond.error?.message).toMatch(/^You can refund at most ₹/);
    expect(await refundedByGateway(part.paymentId)).toBe(20_000);
  });

  it('a ticket is sent to a friend, who accepts it on their own account: the old QR no longer admits, the new one does', async () => {
    const sender = await newBuyer();
    const { bookingId } = await purchase(sender.cookie, 1);
    const oldQr = await qrOf(bookingId, sender.cookie);
    const listBefore = await syncList();
    await site.ok(
      'mutation',
      'transfers.start',
      { bookingId, name: 'Kavya Friend', email: 'kavya@example.in', mobile: '' },
      sender.cookie,
    );
    const offer = await mailTo('kavya@example.in');
    const token = /\/transfers\/([\w-]+)/.exec(offer?.text ?? '')![1]!;
    const friend = await site.signUpAndSignIn('Kavya Friend', 'kavya@example.in');
    const accepted = await site.ok('mutation', 'transfers.accept', { token }, friend.cookie);
    expect(accepted.data).toEqual({ bookingId });
    expect(await bookingRow(bookingId)).toMatchObject({ userEmail: 'kavya@example.in', transferCount: 1 });
    expect((await site.ok<unknown[]>('query', 'bookings.mine', undefined, sender.cookie)).data).toEqual([]);

    const newQr = await qrOf(bookingId, friend.cookie);
    expect(newQr).not.toBe(oldQr);
    // An offline device's next delta carries the new holder and the token's generation (1).
    const delta = await syncList({
      ticketCursor: listBefore.ticketCursor,
      feedCursor: listBefore.feedCursor,
    });
    const resent = delta.tickets.find((ticket) => ticket[0] === bookingId);
    expect(resent?.[1]).toBe('Kavya Friend');
    expect(resent?.[7]).toBe(1);
    expect(await scan(oldQr)).toMatchObject({ outcome: 'refuse', message: GATE_MESSAGES.transferred });
    expect(await scan(newQr)).toMatchObject({ outcome: 'admit', persons: 1 });
  });

  it('at the gate: a valid ticket admitted, the same again already used, a forged QR refused', async () => {
    const buyer = await newBuyer();
    const { bookingId } = await purchase(buyer.cookie, 1);
    const qr = await qrOf(bookingId, buyer.cookie);
    expect(await scan(qr)).toMatchObject({ outcome: 'admit', persons: 1, ticket: { admitted: 1 } });
    expect(await scan(qr)).toMatchObject({
      outcome: 'refuse',
      message: expect.stringMatching(/^Already used at North gate/),
    });
    // A QR signed with another key for this very booking, and one that is not a ticket at all.
    const forged = signTicketToken('forger-secret-0123456789abcdef0123456789abcdef', bookingId);
    expect(forged).not.toBe(qr);
    expect(await scan(forged)).toMatchObject({ outcome: 'refuse', message: GATE_MESSAGES.invalid });
    expect(await scan(`${qr.slice(0, -4)}AAAA`)).toMatchObject({ outcome: 'refuse' });
    expect(await bookingRow(bookingId)).toMatchObject({ numberOfUserCheckedIn: 1 });
    // A buyer (no place on the gate team) may not scan at all.
    const stranger = await site.call(
      'mutation',
      'gate.scan',
      {
        eventId: show.eventId,
        slotId: show.slotId,
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
    const sync = syncList;
    const a = await purchase((await newBuyer()).cookie, 2);
    const b = await purchase((await newBuyer()).cookie, 1);
    const list = await sync();
    const listed = new Map(list.tickets.map((ticket) => [ticket[0], ticket]));
    // [bookingId, holder, type, persons allowed, admitted, cancelled, …]
    expect(listed.get(a.bookingId)).toEqual(expect.arrayContaining([a.bookingId]));
    expect(listed.get(a.bookingId)?.slice(3, 6)).toEqual([2, 0, 0]);
    expect(listed.get(b.bookingId)?.slice(3, 6)).toEqual([1, 0, 0]);
    const admittedBefore = list.counters.admitted;

    // The device admitted a's two people and b's one while offline, then b's again at another gate.
    const at = (minutesAgo: number) => new Date(t.clock.now().getTime() - minutesAgo * 60_000).toISOString();
    const qrA = signTicketToken(t.deps.appSecret, a.bookingId);
    const qrB = signTicketToken(t.deps.appSecret, b.bookingId);
    const scans = [
      { scanId: randomUUID(), token: qrA, decision: 'admit', persons: 2, scannedAt: at(5) },
      { scanId: randomUUID(), token: qrB, decision: 'admit', persons: 1, scannedAt: at(4) },
    ];
    const upload = (gate: string, batch: typeof scans) =>
      site.ok<MergedScan[]>(
        'mutation',
        'gate.upload',
        { eventId: show.eventId, slotId: show.slotId, gate, deviceId: `phone-${gate}`, scans: batch },
        gateStaff,
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
    expect(await bookingRow(a.bookingId)).toMatchObject({ numberOfUserCheckedIn: 2 });
    expect(await bookingRow(b.bookingId)).toMatchObject({ numberOfUserCheckedIn: 1 });
    // Online, the ticket admitted offline is now used.
    expect(await scan(qrA)).toMatchObject({ outcome: 'refuse' });
  });
});
