import type Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organiserProfileSchema } from '../../shared/gst-schemas.ts';
import { QUEUE_TOKEN_HEADER, type WaitingRoomStatus } from '../../shared/waiting-room.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { outbox } from '../../src-server/db/schema/mail.ts';
import { writeTransaction } from '../../src-server/db/write-transaction.ts';
import { simulatePayment } from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { cancelBookingsOfCancelledSlots } from '../../src-server/services/bookings/cancel-bookings-of-cancelled-slots.ts';
import { issueCreditNotes } from '../../src-server/services/invoices/issue-credit-note.ts';
import { saveOrganiserProfile } from '../../src-server/services/invoices/organiser-profile.ts';
import { platformGstOf } from '../../src-server/services/invoices/platform-gst.ts';
import { registerDueEInvoices } from '../../src-server/services/invoices/register-e-invoices.ts';
import { sendDueMail } from '../../src-server/services/mail/sender.ts';
import { reconcileOpenOrders } from '../../src-server/services/payments/reconcile.ts';
import { runDueRefunds } from '../../src-server/services/refunds/run-due-refunds.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { admitDueVisitors } from '../../src-server/services/waiting-room/admit-visitors.ts';
import { createBooking } from '../helpers/bookings.ts';
import { confirm, payWithSimulator, proceed } from '../helpers/checkout-flow.ts';
import { createAccount, createConsoleWorld, createOwnedEvent } from '../helpers/console-world.ts';
import { createTicketedEvent } from '../helpers/inventory.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';
import { linkInOutbox, signInVia, signUpVia, tokenOf } from './auth-helpers.ts';

// The event editor's draft, as test/integration/event-editor.test.ts builds it.
const EDITOR_DETAILS = {
  name: 'Monsoon Ragas',
  category: 'concerts',
  city: 'Pune',
  eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
  googleMapsEmbedLink: 'https://maps.google.com/?q=Ganesh+Kala+Krida',
  description: 'An evening of Hindustani classical music.',
  ageRestrictions: 12,
  language: 'Hindi',
  termsAndConditions: ['Carry a photo ID.'],
  artists: [{ name: 'Kaushiki Chakraborty' }],
  platformFeeRate: 4,
};
const EDITOR_TICKET = {
  name: 'Gold',
  priceRupees: 1499.5,
  totalTickets: 100,
  maxPerOrder: 6,
  personAllowedPerTicket: 1,
  description: 'Front rows',
  benefits: ['Reserved seating'],
  isRefundable: true,
  onSale: true,
  saleOpensAt: null,
  saleClosesAt: null,
};

/** Tables that grow with use: a request must never read one of them end to end. */
const GROWING = new Set([
  'holds',
  'hold_items',
  'payment_orders',
  'bookings',
  'refunds',
  'webhook_events',
  'sessions',
  'failed_logins',
  'password_reset_tokens',
  'email_verification_tokens',
  'outbox',
  'rate_limit_hits',
  'simulator_orders',
  'simulator_payments',
  'event_team_members',
  'team_invitations',
  'organiser_requests',
  'account_roles',
  'gate_scans',
  'invoices',
  'credit_notes',
  'booking_history',
  'document_counters',
  'waitlist_entries',
  'waiting_room_visitors',
]);

/**
 * Searches allowed to leave a filter unindexed, each with its reason. Keyed by table and the columns left.
 */
const ALLOWED: Record<string, string> = {
  'bookings: status':
    "one event's bookings, found by bookings_event_created_idx, filtered by status: an event has at most its capacity of orders, and nearly all are confirmed (an index on status would not narrow them); the gate's slot counter likewise sums a whole slot found by bookings_slot_idx, the status only leaving cancelled ones out",
  'bookings: slot_id':
    "the orders table's slot filter, within one event's bookings (bookings_event_created_idx keeps them in page order)",
  'bookings: slot_id, status':
    "the orders table's slot and status filters, within one event's bookings (bookings_event_created_idx keeps them in page order)",
  'bookings: event_id':
    "the orders table's count with a slot and status filter, found by bookings_slot_status_idx: a slot belongs to one event, so its event filter only guards against another event's slot id",
  // Undo checks a booking's own scans (by gate_scans_booking_idx): a handful of rows per ticket.
  'gate_scans: undoes_scan_id': 'undo: among one booking’s scans',
  // "Was this ticket ever used" (services/gate/ever-admitted.ts) likewise reads one booking's scans.
  'gate_scans: kind': 'whether a booking was ever admitted: among one booking’s scans',
  // A code's use lives on the hold's own row (ADR 0047): holds_discount_code_user_idx finds one buyer's
  // holds made with one code, a handful (the per-buyer limit, and those given back).
  'holds: slot_id, status': 'a buyer’s holds with one code, by holds_discount_code_user_idx: a handful',
  'holds: status':
    'the console’s count of a code’s uses: the holds made with that code (holds_discount_code_user_idx), status only telling converted from given back',
  'waitlist_entries: status':
    'the entry behind one offer hold (waitlist_entries_offer_hold_idx): a hold is the offer of at most one entry',
};

/**
 * Issue 21: a request's cost must not grow with history. Every distinct statement the buyer's journey
 * compiles is explained; a full scan of a growing table fails, and so does a search whose index leaves
 * one of the statement's equality filters on that table out (unless it is a search by a unique key,
 * which reads one row whatever else is filtered). The organiser console's paths are covered as far as
 * they exist (access, home, event, team, invitations); the gate and on-sale work should add theirs.
 */
describe('query plans on the request paths', () => {
  it('the buyer journey reads growing tables only through indexes that cover their equality filters', async () => {
    const t = createTestApp();
    try {
      const compiled = recordStatements(t);

      const ev = createTicketedEvent(t.deps.db);
      const buyer = createSignedInUser(t);
      const signedIn = { cookie: buyer.cookie };
      expect((await callProcedure(t, 'query', 'auth.me', undefined, signedIn)).status).toBe(200);
      expect((await callProcedure(t, 'query', 'events.list', undefined)).status).toBe(200);
      expect((await callProcedure(t, 'query', 'events.byId', { id: ev.eventId })).status).toBe(200);
      const abandoned = await proceed(t, buyer.cookie, ev, 1);
      const released = await callProcedure(
        t,
        'mutation',
        'payments.release',
        { holdId: abandoned.holdId, reason: 'cancelled' },
        signedIn,
      );
      expect(released.data).toEqual({ released: true });
      await proceed(t, buyer.cookie, ev, 1);
      const session = await proceed(t, buyer.cookie, ev, 2); // replaces the one before
      const paid = await payWithSimulator(t, session.orderId, true);
      expect((await confirm(t, buyer.cookie, paid)).status).toBe(200);
      const mine = await callProcedure(t, 'query', 'bookings.mine', undefined, signedIn);
      const [booking] = mine.data as { bookingId?: string; id?: string }[];
      const bookingId = booking?.bookingId ?? booking?.id;
      expect(bookingId).toBeTruthy();
      const detail = await callProcedure(t, 'query', 'bookings.byId', { bookingId }, signedIn);
      expect(detail.status).toBe(200);
      // Issue 16: My Bookings asks each upcoming booking's cancellation quote; then the buyer cancels.
      const quote = await callProcedure(t, 'query', 'bookings.cancellationQuote', { bookingId }, signedIn);
      expect(quote.data).toMatchObject({ cancellable: true });
      const cancelled = await callProcedure(t, 'mutation', 'bookings.cancel', { bookingId }, signedIn);
      expect(cancelled.data).toMatchObject({ cancelled: true });

      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('from "holds"'))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('the waiting list (join, offer on a return, the offer page, Pay, My Bookings, leave) reads through indexes', async () => {
    const t = createTestApp();
    try {
      const ev = createTicketedEvent(t.deps.db, {
        types: [{ name: 'Gold Circle', pricePaise: 50_000, totalTickets: 2 }],
      });
      const holder = createSignedInUser(t);
      const held = await proceed(t, holder.cookie, ev, 2);
      const [first, second] = [createSignedInUser(t), createSignedInUser(t)];
      const compiled = recordStatements(t);
      const entries: string[] = [];
      for (const buyer of [first, second]) {
        const joined = await callProcedure(
          t,
          'mutation',
          'waitlist.join',
          {
            ticketTypeId: ev.ticketTypeIds[0],
            quantity: 2,
            details: { name: 'Asha Verma', email: buyer.email, phone: '9876543210', state: 'Goa' },
          },
          { cookie: buyer.cookie },
        );
        expect(joined.status).toBe(200);
        entries.push((joined.data as { entryId: string }).entryId);
        t.clock.advance(1);
      }
      const released = await callProcedure(
        t,
        'mutation',
        'payments.release',
        { holdId: held.holdId, reason: 'cancelled' },
        { cookie: holder.cookie },
      );
      expect(released.data).toEqual({ released: true });
      const signedIn = { cookie: first.cookie };
      const entryId = { entryId: entries[0] };
      expect((await callProcedure(t, 'query', 'waitlist.offer', entryId, signedIn)).status).toBe(200);
      const pay = await callProcedure(t, 'mutation', 'waitlist.payOffer', entryId, signedIn);
      expect(pay.status, JSON.stringify(pay.body)).toBe(200);
      expect((await callProcedure(t, 'query', 'waitlist.mine', undefined, signedIn)).status).toBe(200);
      const mine = await callProcedure(t, 'query', 'waitlist.mine', undefined, { cookie: second.cookie });
      expect(mine.data).toMatchObject([{ place: 1 }]);
      expect((await callProcedure(t, 'mutation', 'waitlist.leave', entryId, signedIn)).status).toBe(200);
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('from "waitlist_entries"'))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('the organiser console reads growing tables only through indexes that cover their equality filters', async () => {
    const t = createTestApp();
    try {
      const owner = createAccount(t, 'organiser');
      const event = createOwnedEvent(t, owner.userId);
      const signedIn = { cookie: owner.cookie };
      const compiled = recordStatements(t);
      for (const [procedure, input] of [
        ['console.access', undefined],
        ['console.myEvents', undefined],
        ['console.event', { eventId: event.eventId }],
        ['console.team', { eventId: event.eventId }],
      ] as const) {
        expect((await callProcedure(t, 'query', procedure, input, signedIn)).status, procedure).toBe(200);
      }
      const invite = await callProcedure(
        t,
        'mutation',
        'console.invite',
        { eventId: event.eventId, email: 'gate@example.com', role: 'gate_staff' },
        signedIn,
      );
      expect(invite.status).toBe(200);
      const team = await callProcedure(t, 'query', 'console.team', { eventId: event.eventId }, signedIn);
      expect(team.status).toBe(200);
      const statements = compiled.stop();
      expect(statements.length).toBeGreaterThan(3);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('shared capacity (issue 40): a hold, a release and the editor’s quota list read through indexes', async () => {
    const t = createTestApp();
    try {
      const owner = createAccount(t, 'organiser');
      const ev = createTicketedEvent(t.deps.db, {
        types: [
          { name: 'Stalls', pricePaise: 60_000, totalTickets: 40 },
          { name: 'Balcony', pricePaise: 40_000, totalTickets: 40 },
        ],
      });
      t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, ev.eventId)).run();
      const signedIn = { cookie: owner.cookie };
      const compiled = recordStatements(t);
      const quota = { name: 'Hall', capacity: 50, slotIds: [ev.slotId], ticketTypeIds: ev.ticketTypeIds };
      const created = await callProcedure(
        t,
        'mutation',
        'console.createQuota',
        { eventId: ev.eventId, quota },
        signedIn,
      );
      expect(created.status).toBe(200);
      const buyer = createSignedInUser(t);
      const held = await proceed(t, buyer.cookie, ev, 2);
      expect((await callProcedure(t, 'query', 'tickets.options', { eventId: ev.eventId })).status).toBe(200);
      expect(
        (await callProcedure(t, 'query', 'console.quotas', { eventId: ev.eventId }, signedIn)).status,
      ).toBe(200);
      const released = await callProcedure(
        t,
        'mutation',
        'payments.release',
        { holdId: held.holdId, reason: 'cancelled' },
        { cookie: buyer.cookie },
      );
      expect(released.data).toEqual({ released: true });
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('"quota_ticket_types"'))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('the waiting room (join, draw, admission, status checks, Proceed with a pass, settings) reads visitors through indexes', async () => {
    const t = createTestApp();
    try {
      const owner = createAccount(t, 'organiser');
      const event = createOwnedEvent(t, owner.userId);
      const opensAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
      const compiled = recordStatements(t);
      const settings = await callProcedure(
        t,
        'mutation',
        'organiser.updateWaitingRoom',
        { eventId: event.eventId, enabled: true, opensAt, admitPerMinute: 60 },
        { cookie: owner.cookie },
      );
      expect(settings.status).toBe(200);
      const buyers = [createSignedInUser(t), createSignedInUser(t)];
      const tokens: string[] = [];
      for (const b of buyers) {
        const joined = await callProcedure(
          t,
          'mutation',
          'waitingRoom.join',
          { eventId: event.eventId },
          {
            cookie: b.cookie,
          },
        );
        tokens.push((joined.data as { token: string }).token);
      }
      t.clock.set(new Date(Date.parse(opensAt) + 2_500));
      await admitDueVisitors(t.deps);
      const late = createSignedInUser(t);
      await callProcedure(
        t,
        'mutation',
        'waitingRoom.join',
        { eventId: event.eventId },
        { cookie: late.cookie },
      );
      let pass = '';
      let passHolder = 0;
      for (const [i, token] of tokens.entries()) {
        const res = await t.request(`/api/waiting-room/${event.eventId}`, {
          headers: { [QUEUE_TOKEN_HEADER]: token },
        });
        const body = (await res.json()) as WaitingRoomStatus;
        if (body.visitor?.pass) {
          pass = body.visitor.pass;
          passHolder = i;
        }
      }
      expect(pass).not.toBe('');
      await proceed(t, buyers[passHolder]!.cookie, event, 1, { admissionPass: pass });
      const view = await callProcedure(
        t,
        'query',
        'organiser.waitingRoom',
        { eventId: event.eventId },
        {
          cookie: owner.cookie,
        },
      );
      expect(view.data).toMatchObject({ visitors: 3 });
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('waiting_room_visitors'))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('the admin page pages organisers and events through indexes (the totals panel adds up everything by design)', async () => {
    const t = createTestApp();
    try {
      const admin = createAccount(t, 'admin');
      createOwnedEvent(t, createAccount(t, 'organiser').userId);
      const compiled = recordStatements(t);
      for (const procedure of ['admin.organisers', 'admin.events']) {
        const res = await callProcedure(t, 'query', procedure, { page: 2 }, { cookie: admin.cookie });
        expect(res.status, procedure).toBe(200);
      }
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('from account_roles'))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('the sales dashboard, the orders table and its CSV read growing tables only through indexes', async () => {
    const t = createTestApp();
    try {
      const owner = createAccount(t, 'organiser');
      const event = createOwnedEvent(t, owner.userId);
      const buyer = createSignedInUser(t);
      const session = await proceed(t, buyer.cookie, event, 2);
      expect((await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId, true))).status).toBe(
        200,
      );
      await proceed(t, createSignedInUser(t).cookie, event, 1); // an active hold
      const signedIn = { cookie: owner.cookie };
      const eventId = event.eventId;
      const compiled = recordStatements(t);
      const first = await callProcedure(t, 'query', 'console.orders', { eventId, limit: 25 }, signedIn);
      const [order] = (first.data as { orders: { id: string; createdAt: string }[] }).orders;
      const cursor = `${order!.createdAt}|${order!.id}`;
      for (const [procedure, input] of [
        ['console.myEvents', undefined],
        ['console.salesDashboard', { eventId }],
        ['console.salesOverTime', { eventId, bucket: 'day' }],
        ['console.salesOverTime', { eventId, bucket: 'hour' }],
        ['console.orders', { eventId, q: 'asha', slotId: event.slotId, status: 'confirmed', after: cursor }],
        ['console.orders', { eventId, q: '98765', sort: 'oldest', after: cursor }],
      ] as const) {
        expect((await callProcedure(t, 'query', procedure, input, signedIn)).status, procedure).toBe(200);
      }
      const csv = await t.request(`/api/organiser/events/${eventId}/orders.csv?status=confirmed&q=asha`, {
        headers: { cookie: owner.cookie },
      });
      expect(csv.status).toBe(200);
      expect(await csv.text()).toContain('Asha Verma');
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('json_each'))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('cancellations, refunds and the console booking page read growing tables only through indexes', async () => {
    const t = createTestApp();
    try {
      const w = createConsoleWorld(t);
      const first = await buyTickets(t, w.event, 1);
      await buyTickets(t, w.event, 1);
      const owner = { cookie: w.people.owner.cookie };
      const eventId = w.event.eventId;
      const compiled = recordStatements(t);
      const calls = [
        ['query', 'eventBookings.booking', { eventId, bookingId: first.bookingId }],
        ['mutation', 'eventBookings.resendTicket', { eventId, bookingId: first.bookingId }],
        ['mutation', 'eventBookings.cancel', { eventId, bookingId: first.bookingId }],
        ['query', 'organiser.cancellationPreview', { eventId, slotId: w.event.slotId }],
        [
          'mutation',
          'organiser.updateSlotTime',
          { eventId, version: 1, slotId: w.event.slotId, startTime: '18:00', endTime: '22:00' },
        ],
        ['mutation', 'organiser.cancelSlot', { eventId, version: 2, slotId: w.event.slotId }],
      ] as const;
      for (const [kind, procedure, input] of calls) {
        expect((await callProcedure(t, kind, procedure, input, owner)).status, procedure).toBe(200);
      }
      await cancelBookingsOfCancelledSlots(t.deps);
      await runDueRefunds(t.deps);
      // The reconciler's sweeps of open and of settled orders, past the minute it leaves to the webhook.
      t.clock.advance(61_000);
      expect(await reconcileOpenOrders(t.deps)).toMatchObject({ settledOrdersChecked: 2 });
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('"refunds"'))).toBe(true);
      expect(statements.some((s) => /from "payment_orders" where .*"status" in/.test(s))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('the gate reads growing tables only through indexes that cover their equality filters', async () => {
    const t = createTestApp();
    try {
      const owner = createAccount(t, 'organiser');
      const buyer = createSignedInUser(t);
      const booked = createBooking(t, { userId: buyer.userId });
      t.deps.db.update(events).set({ ownerId: owner.userId }).where(eq(events.id, booked.eventId)).run();
      const signedIn = { cookie: owner.cookie };
      const where = {
        eventId: booked.eventId,
        slotId: booked.row.slotId,
        gate: 'North gate',
        deviceId: 'd1',
      };
      const token = signTicketToken(t.deps.appSecret, booked.bookingId);
      const compiled = recordStatements(t);
      const full = await callProcedure(
        t,
        'query',
        'gate.sync',
        { eventId: booked.eventId, slotId: booked.row.slotId },
        signedIn,
      );
      expect(full.status).toBe(200);
      const scan = await callProcedure(
        t,
        'mutation',
        'gate.scan',
        { ...where, scanId: 'scan-plan-0001', token, persons: 1 },
        signedIn,
      );
      expect(scan.status).toBe(200);
      for (const [kind, procedure, input] of [
        ['query', 'gate.events', undefined],
        [
          'query',
          'gate.sync',
          { eventId: booked.eventId, slotId: booked.row.slotId, ticketCursor: 1, feedCursor: 0 },
        ],
        ['mutation', 'gate.scan', { ...where, scanId: 'scan-plan-0001', token, persons: 1 }],
        ['mutation', 'gate.scan', { ...where, scanId: 'scan-plan-0002', token }],
        [
          'mutation',
          'gate.upload',
          {
            ...where,
            scans: [
              {
                scanId: 'scan-plan-0003',
                token,
                decision: 'admit',
                persons: 3,
                scannedAt: '2026-12-05T13:40:00.000Z',
              },
            ],
          },
        ],
        [
          'mutation',
          'gate.undo',
          { ...where, undoId: 'undo-plan-0001', scanId: 'scan-plan-0001', reason: 'Test scan' },
        ],
        ['query', 'gate.lookUp', { eventId: booked.eventId, slotId: booked.row.slotId, query: 'Test' }],
        ['query', 'gate.dashboard', { eventId: booked.eventId }],
      ] as const) {
        expect((await callProcedure(t, kind, procedure, input, signedIn)).status, procedure).toBe(200);
      }
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('from "gate_scans"'))).toBe(true);
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
      // Each sync reads the event's other slots from the device's cursor on: a range of the index, not
      // every booking the event ever had.
      const otherSlots = statements.find((s) => /"slot_id" <> \?/.test(s) && /rowid > \?/.test(s));
      expect(otherSlots).toBeDefined();
      expect(planOf(t.deps.sqlite, otherSlots!).join('; ')).toContain('(event_id=? AND rowid>?)');
    } finally {
      t.close();
    }
  });

  it('issuing, listing and downloading invoices, and the monthly CSV, read through indexes', async () => {
    const t = createTestApp();
    try {
      const owner = createAccount(t, 'organiser');
      const profile = organiserProfileSchema.parse({
        legalName: 'Tala LLP',
        address: 'Mumbai 400050',
        state: 'Maharashtra',
        gstin: '27AAPFU0939F1ZV',
      });
      await saveOrganiserProfile(t.deps.db, platformGstOf(t.deps.env), owner.userId, profile, t.clock.now());
      const event = createOwnedEvent(t, owner.userId);
      const buyer = createSignedInUser(t);
      const warm = await proceed(t, buyer.cookie, event, 1);
      await confirm(t, buyer.cookie, await payWithSimulator(t, warm.orderId));
      const admin = createAccount(t, 'admin');
      const compiled = recordStatements(t);
      const session = await proceed(t, buyer.cookie, event, 1);
      const booked = await confirm(t, buyer.cookie, await payWithSimulator(t, session.orderId));
      const bookingId = (booked.data as { bookingId: string }).bookingId;
      await writeTransaction(t.deps.db, (tx) => issueCreditNotes(tx, bookingId, 'test', t.clock.now()));
      const third = await proceed(t, buyer.cookie, event, 1);
      const later = await confirm(t, buyer.cookie, await payWithSimulator(t, third.orderId));
      const reissued = await callProcedure(
        t,
        'mutation',
        'invoices.addBuyerGstin',
        {
          bookingId: (later.data as { bookingId: string }).bookingId,
          buyerGstin: '27AAPFU0939F1ZV',
          buyerLegalName: 'Asha Verma Pvt Ltd',
          buyerAddress: '4 MG Road, Pune 411001',
        },
        { cookie: buyer.cookie },
      );
      expect(reissued.status).toBe(200);
      const mine = await callProcedure(
        t,
        'query',
        'invoices.forBooking',
        { bookingId },
        { cookie: buyer.cookie },
      );
      const [invoice] = mine.data as { id: string }[];
      // The re-issue credited the first invoice: its credit note's download (joined to the invoice by id).
      const credited = (mine.data as { creditNoteId: string | null }[]).find((i) => i.creditNoteId);
      const note = await t.request(`/api/invoices/credit-notes/${credited!.creditNoteId}.pdf`, {
        headers: { cookie: owner.cookie },
      });
      expect(note.status).toBe(200);
      const forEvent = await callProcedure(
        t,
        'query',
        'invoices.forEvent',
        { eventId: event.eventId, bookings: [bookingId] },
        { cookie: owner.cookie },
      );
      expect(forEvent.data).toHaveLength(1);
      const pdf = await t.request(`/api/invoices/${invoice!.id}.pdf`, { headers: { cookie: owner.cookie } });
      expect(pdf.status).toBe(200);
      const csv = await t.request('/api/invoices/month/2026-11.csv', { headers: { cookie: owner.cookie } });
      expect(await csv.text()).toContain('Credit note');
      // GSTR-1, the platform's exports, and e-invoicing (issue 36): queue, send (no IRP here), status.
      const gstr1 = await t.request('/api/invoices/gstr1/2026-11.zip', { headers: { cookie: owner.cookie } });
      expect(gstr1.status).toBe(200);
      for (const path of [
        '/api/invoices/platform/gstr1/2026-11.zip',
        '/api/invoices/platform/month/2026-11.csv',
      ]) {
        expect((await t.request(path, { headers: { cookie: admin.cookie } })).status, path).toBe(200);
      }
      const eInvoicing = { cookie: owner.cookie };
      expect(
        (await callProcedure(t, 'mutation', 'invoices.setEInvoicing', { applies: true }, eInvoicing)).status,
      ).toBe(200);
      expect(await registerDueEInvoices({ ...t.deps, eInvoiceProvider: null })).toBe(1);
      // The platform's own B2B fee invoices (PLATFORM_E_INVOICING_SINCE): through their partial index.
      const platformOn = { ...t.deps.env, PLATFORM_E_INVOICING_SINCE: '2026-11-01' };
      await registerDueEInvoices({ ...t.deps, env: platformOn, eInvoiceProvider: null });
      expect((await callProcedure(t, 'query', 'invoices.eInvoicing', undefined, eInvoicing)).status).toBe(
        200,
      );
      const statements = compiled.stop();
      expect(statements.some((s) => s.includes('document_counters'))).toBe(true);
      expect(statements.some((s) => s.includes('e_invoice_registrations'))).toBe(true);
      // The credit notes' queue and due list (CRN) are read through indexes too.
      expect(statements.some((s) => s.includes('e_credit_note_registrations'))).toBe(true);
      // The platform's queue never walks its B2C fee invoices: it reads the partial index of B2B ones.
      const feeQueue = statements.find(
        (s) => s.includes("kind = 'platform_fee'") && s.includes('e_invoice_registrations'),
      );
      expect(planOf(t.deps.sqlite, feeQueue!).join('\n')).toContain('invoices_b2b_fee_issuer_issued_idx');
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });

  it('accounts, mail, webhooks, invitations and the event editor read growing tables only through indexes', async () => {
    const t = createTestApp();
    try {
      // A few rows in every growing table first, so a plan is chosen against real content.
      const w = createConsoleWorld(t);
      await buyTickets(t, w.event, 1);
      const compiled = recordStatements(t);

      // Accounts: sign-up, a failed and a good sign-in, sign-out, password reset, e-mail verification.
      const person = await signUpVia(t);
      expect((await signInVia(t, person.email, 'wrong-password')).status).toBe(401);
      const signedIn = await signInVia(t, person.email, person.password);
      expect(signedIn.status).toBe(200);
      const cookie = { cookie: person.cookie };
      expect((await callProcedure(t, 'query', 'auth.me', undefined, cookie)).status).toBe(200);
      expect((await callProcedure(t, 'mutation', 'auth.resendVerification', undefined, cookie)).status).toBe(
        200,
      );
      const verify = tokenOf(await compiled.unrecorded(() => linkInOutbox(t, person.email, '/verify-email')));
      expect((await callProcedure(t, 'mutation', 'auth.verifyEmail', { token: verify })).status).toBe(200);
      const asked = await callProcedure(t, 'mutation', 'auth.requestPasswordReset', { email: person.email });
      expect(asked.status).toBe(200);
      const reset = tokenOf(
        await compiled.unrecorded(() => linkInOutbox(t, person.email, '/reset-password')),
      );
      expect((await callProcedure(t, 'query', 'auth.resetLinkStatus', { token: reset })).status).toBe(200);
      const password = 'another-secret';
      const changed = await callProcedure(t, 'mutation', 'auth.resetPassword', {
        token: reset,
        password,
        confirmPassword: password,
      });
      expect(changed.status).toBe(200);
      expect((await callProcedure(t, 'mutation', 'auth.signOut', undefined, cookie)).status).toBe(200);

      // The outbox delivered (claim, send, mark sent).
      const sent = await sendDueMail({
        db: t.deps.db,
        mailer: t.deps.mailer,
        from: 'Jalsa <tickets@example.com>',
        clock: t.clock,
        logger: t.deps.logger,
        pause: async () => {},
      });
      expect(sent.sent).toBeGreaterThan(0);

      // The gateway's webhooks for a payment the browser never reported.
      const buyer = createSignedInUser(t);
      const session = await proceed(t, buyer.cookie, w.event, 1);
      await simulatePayment(t.deps, session.orderId);
      await simulatorWebhooksDelivered(t.deps);

      // An invitation shown, accepted by a new account, and the team read back.
      const email = 'new.member@example.com';
      const invited = await callProcedure(
        t,
        'mutation',
        'console.invite',
        { eventId: w.event.eventId, email, role: 'gate_staff' },
        { cookie: w.people.owner.cookie },
      );
      expect(invited.status).toBe(200);
      const token = await compiled.unrecorded(
        () => /\/organiser\/invitations\/([a-z0-9]+)/.exec(linkedText(t, email))![1]!,
      );
      expect((await callProcedure(t, 'query', 'console.invitation', { token })).status).toBe(200);
      const invitee = await signUpVia(t, { email });
      const accepted = await callProcedure(
        t,
        'mutation',
        'console.acceptInvitation',
        { token },
        { cookie: invitee.cookie },
      );
      expect(accepted.status).toBe(200);

      // The event editor: a draft built up, read back and published.
      const organiser = createAccount(t, 'organiser');
      const edit = async (kind: 'query' | 'mutation', name: string, input: unknown) => {
        const res = await callProcedure(t, kind, `organiser.${name}`, input, { cookie: organiser.cookie });
        expect(res.status, `${name}: ${JSON.stringify(res.body.error)}`).toBe(200);
        return res.data as { version: number; eventId: string; dateId: string; slotId: string };
      };
      const created = await edit('mutation', 'createEvent', {
        ...EDITOR_DETAILS,
        posterUrl: '/images/events/sufi-nights-delhi-poster.webp',
      });
      const eventId = created.eventId;
      const dated = await edit('mutation', 'addDate', {
        eventId,
        version: created.version,
        day: '2026-12-12',
      });
      const slotted = await edit('mutation', 'addSlot', {
        eventId,
        version: dated.version,
        dateId: dated.dateId,
        startTime: '18:30',
        endTime: '21:00',
      });
      await edit('mutation', 'addTicketType', {
        eventId,
        version: slotted.version,
        slotId: slotted.slotId,
        ticket: EDITOR_TICKET,
      });
      await edit('query', 'editableEvent', { eventId });
      await edit('query', 'preview', { eventId });

      const statements = compiled.stop();
      for (const table of [
        'failed_logins',
        'password_reset_tokens',
        'outbox',
        'webhook_events',
        'team_invitations',
      ]) {
        expect(
          statements.some((s) => s.includes(`"${table}"`) || s.includes(` ${table} `)),
          table,
        ).toBe(true);
      }
      expect(statements.flatMap((source) => planProblems(t.deps.sqlite, source))).toEqual([]);
    } finally {
      t.close();
    }
  });
});

/** The text of the newest mail queued to `to` (a test's own read). */
function linkedText(t: TestApp, to: string): string {
  return t.deps.db.select().from(outbox).where(eq(outbox.to, to)).all().at(-1)!.text;
}

/** Every distinct SQL text the app compiles from now until `stop()` (statements are built on first use). */
function recordStatements(t: TestApp) {
  const compiled = new Set<string>();
  const prepare = t.deps.sqlite.prepare;
  let recording = true;
  t.deps.sqlite.prepare = ((source: string) => {
    if (recording) compiled.add(source);
    return prepare(source);
  }) as typeof prepare;
  return {
    /** Runs a test helper's own reads (a mailed link looked up by address) without recording them. */
    unrecorded: async <T>(read: () => T | Promise<T>): Promise<T> => {
      recording = false;
      try {
        return await read();
      } finally {
        recording = true;
      }
    },
    stop: () => {
      t.deps.sqlite.prepare = prepare;
      return [...compiled].filter((source) => /^\s*(select|insert|update|delete|with)\b/i.test(source));
    },
  };
}

function planOf(sqlite: Database.Database, source: string): string[] {
  const parameters = Array((source.match(/\?/g) ?? []).length).fill(null);
  const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...parameters) as { detail: string }[];
  return plan.map((step) => step.detail);
}

function planProblems(sqlite: Database.Database, source: string): string[] {
  const plan = planOf(sqlite, source).map((detail) => ({ detail }));
  const aliases = tableAliases(source);
  const problems: string[] = [];
  for (const { detail } of plan) {
    const step = /^(SCAN|SEARCH) (\w+)(?: USING (?:COVERING )?INDEX (\w+)(?: \(([^)]*)\))?)?/.exec(detail);
    // The plan names a table by its alias when the statement gives one ('SCAN b' for `bookings b`).
    const table = step && (aliases.get(step[2]!) ?? step[2]!);
    if (!step || !table || !GROWING.has(table)) continue;
    const [, kind, alias, index, searched = ''] = step as unknown as [
      string,
      string,
      string,
      string?,
      string?,
    ];
    if (kind === 'SCAN') {
      problems.push(`${detail} :: ${source}`);
      continue;
    }
    if (!index || isUniqueLookup(sqlite, table, index, searched)) continue;
    const indexed = new Set([
      ...[...searched.matchAll(/(\w+)=/g)].map((m) => m[1]!),
      ...partialIndexColumns(sqlite, index),
    ]);
    const filtered = [
      ...source.matchAll(new RegExp(`(?:"${table}"|\\b${alias})\\."?(\\w+)"? = (?:\\?|'[^']*')`, 'g')),
    ].map((m) => m[1]!);
    const left = [...new Set(filtered)].filter((column) => !indexed.has(column));
    if (left.length > 0 && !ALLOWED[`${table}: ${left.join(', ')}`])
      problems.push(`${detail} leaves ${left.join(', ')} unindexed :: ${source}`);
  }
  return problems;
}

/** `from bookings b`, `join hold_items i`: alias → table, for plans that name tables by alias. */
function tableAliases(source: string): Map<string, string> {
  const aliases = new Map<string, string>();
  const keyword = /^(where|on|join|left|inner|cross|group|order|limit|using|natural|union|set|as)$/i;
  for (const m of source.matchAll(/\b(?:from|join)\s+"?(\w+)"?\s+(?:as\s+)?"?(\w+)"?/gi)) {
    if (!keyword.test(m[2]!)) aliases.set(m[2]!, m[1]!);
  }
  return aliases;
}

/** A search on every column of a unique index (a primary key included) reads at most one row. */
function isUniqueLookup(sqlite: Database.Database, table: string, index: string, searched: string): boolean {
  const list = sqlite.prepare(`PRAGMA index_list("${table}")`).all() as { name: string; unique: number }[];
  if (!list.find((each) => each.name === index)?.unique) return false;
  const columns = (sqlite.prepare(`PRAGMA index_info("${index}")`).all() as { name: string }[]).map(
    (c) => c.name,
  );
  return columns.every((column) => searched.includes(`${column}=`));
}

/** The columns a partial index's own WHERE fixes (`… WHERE status = 'active'`): every row in it matches. */
function partialIndexColumns(sqlite: Database.Database, index: string): string[] {
  const row = sqlite.prepare("select sql from sqlite_master where type = 'index' and name = ?").get(index) as
    | { sql: string | null }
    | undefined;
  const where = row?.sql?.split(/\bWHERE\b/i)[1] ?? '';
  return [...where.matchAll(/[`"]?(\w+)[`"]? = /g)].map((m) => m[1]!);
}
