import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { DbOrTx } from '../../src-server/db/client.ts';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { row, rows } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { markEmailVerified } from '../../src-server/services/accounts/mark-email-verified.ts';
import type { GateScanResult } from '../../src-server/services/gate/gate-core.ts';
import type { GateSync } from '../../src-server/services/gate/sync-slot.ts';
import { setAccountRoleByEmail } from '../../src-server/services/roles/set-account-role.ts';
import { allowLocalServers } from '../mocks/server.ts';
import { inventoryOf } from './engine-inventory.ts';
import { storefront } from './storefront-http.ts';
import { MUMBAI_TAX_PROFILE } from './tax-profile.ts';
import { createTestAppOn, type Engine } from './test-app.ts';

/**
 * A site for the two-engine journeys (engine-journeys*.test.ts, issue 38), everything set up through the
 * app's HTTP/tRPC interface as a browser and the gate's device do it: an organiser (the role given as
 * `npm run user:role` gives it, through the app's service on `t.deps.db`) with a GST profile saved in
 * the console and a published show of 40 seats; a volunteer at the door, invited from the console as
 * gate staff and accepting from the mailed link. Buyers sign up and pay with the simulator; their
 * address is verified through the app's service (the mailed link's effect). Reads of what the app wrote
 * go through the engine's own tables, so they work on either engine.
 */
export async function journeyWorld(engine: Engine) {
  allowLocalServers();
  const t = await createTestAppOn(engine);
  const site = storefront(t.request);

  const read = <T>(steps: (db: DbOrTx) => Generator<unknown, T, unknown>) =>
    runStatements(t.deps.db, steps as never) as Promise<T>;
  const mailTo = (to: string) =>
    read(function* (db) {
      const { outbox } = tablesOf(db);
      return yield* row(db.select().from(outbox).where(eq(outbox.to, to)).orderBy(desc(outbox.id)).limit(1));
    });

  const organiser = (await site.signUpAndSignIn('Ravi Rao', 'ravi@example.in')).cookie;
  await setAccountRoleByEmail(
    t.deps.db,
    { email: 'ravi@example.in', role: 'organiser', grantedBy: null },
    t.clock.now(),
  );
  // The organiser's GST profile, as the console's profile page saves it: part refunds get credit notes.
  await site.ok('mutation', 'invoices.saveProfile', MUMBAI_TAX_PROFILE, organiser);
  const show = await site.publishEvent(organiser, 'Journeys Night', 'Pune', t.clock.now(), 40);
  const gateStaff = (await site.signUpAndSignIn('Meena Door', 'door@example.in')).cookie;
  await site.ok(
    'mutation',
    'console.invite',
    { eventId: show.eventId, email: 'door@example.in', role: 'gate_staff' },
    organiser,
  );
  const invite = await mailTo('door@example.in');
  const token = /\/organiser\/invitations\/([a-z0-9]+)/.exec(invite!.text)![1]!;
  await site.ok('mutation', 'console.acceptInvitation', { token }, gateStaff);

  const bookingRow = (bookingId: string) =>
    read(function* (db) {
      const { bookings } = tablesOf(db);
      return yield* row(db.select().from(bookings).where(eq(bookings.id, bookingId)));
    });
  let buyers = 0;

  return {
    t,
    site,
    organiser,
    gateStaff,
    show,
    read,
    mailTo,
    bookingRow,
    /** The show's ticket type: seats available, held and sold, and its total. */
    seatsLeft: async () => (await read((db) => inventoryOf(db, [show.ticketTypeId])))[0]!,
    refundsOf: (bookingId: string) =>
      read(function* (db) {
        const { refunds } = tablesOf(db);
        return yield* rows(db.select().from(refunds).where(eq(refunds.bookingId, bookingId)));
      }),
    /** What the simulator (the offline Razorpay) has refunded of a payment, by its own books. */
    refundedByGateway: (paymentId: string) =>
      read(function* (db) {
        const { simulatorPayments } = tablesOf(db);
        const payment = yield* row(
          db
            .select({ refunded: simulatorPayments.amountRefundedPaise })
            .from(simulatorPayments)
            .where(eq(simulatorPayments.id, paymentId)),
        );
        return payment!.refunded;
      }),
    /** The booking's mails in the outbox, by key, with whether the mail sender has sent them. */
    mailsOf: (bookingId: string) =>
      read(function* (db) {
        const { outbox } = tablesOf(db);
        const all = yield* rows(
          db.select({ key: outbox.idempotencyKey, status: outbox.status }).from(outbox),
        );
        return Object.fromEntries(
          all.filter((m) => m.key.endsWith(`:${bookingId}`)).map((m) => [m.key, m.status]),
        );
      }),

    /** A new verified buyer (Proceed needs one), signed in: their cookie. */
    async newBuyer() {
      buyers += 1;
      const email = `buyer${buyers}@example.in`;
      const { cookie } = await site.signUpAndSignIn(`Buyer ${buyers}`, email);
      await markEmailVerified(t.deps.db, email, t.clock.now());
      return { cookie, email };
    },

    /** A purchase through Proceed, the simulator's Pay and the confirm callback; its webhooks delivered. */
    async purchase(cookie: string, quantity: number) {
      const { started, confirmed } = await site.buy(cookie, show, quantity);
      expect(started.status, JSON.stringify(started.error)).toBe(200);
      expect(confirmed?.data.outcome).toBe('booked');
      await simulatorWebhooksDelivered(t.deps);
      const bookingId = confirmed!.data.bookingId!;
      const booking = (await bookingRow(bookingId))!;
      return { bookingId, paymentId: booking.paymentId!, totalPaise: booking.totalAmountPaise };
    },

    /** One online scan of `token` at the North gate by the volunteer, for one person. */
    async scan(token: string, scanId: string = randomUUID()) {
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
    },

    /** The gate device's download: the slot's list (whole, or the delta since the cursors) and counters. */
    syncList: async (cursors: { ticketCursor?: number; feedCursor?: number } = {}) =>
      (
        await site.ok<GateSync>(
          'query',
          'gate.sync',
          { eventId: show.eventId, slotId: show.slotId, ...cursors },
          gateStaff,
        )
      ).data,

    /** The QR token My Bookings shows the booking's holder. */
    qrOf: async (bookingId: string, cookie: string) =>
      (await site.ok<{ qrToken: string }>('query', 'bookings.byId', { bookingId }, cookie)).data.qrToken,
  };
}

export type JourneyWorld = Awaited<ReturnType<typeof journeyWorld>>;
