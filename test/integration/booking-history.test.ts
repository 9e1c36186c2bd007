import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { cancelBookingSteps } from '../../src-server/services/bookings/cancel-booking-in.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import type { ConsoleWorld } from '../helpers/console-world.ts';
import { buy as buyTickets, consoleWorld, signedInUser, versionOn } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 40: every change to a booking is recorded with who did it and when, shown on the organiser's
 * booking page, and nothing in the record can be changed, not even by a statement run on the database.
 * Runs on both engines (vitest.config.ts ON_BOTH_ENGINES).
 */
describe('a booking’s order history', () => {
  let t: TestApp;
  let w: ConsoleWorld;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
    w = await consoleWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  /** The engine's tables, for the rows this file reads and writes itself. */
  const tables = () => tablesOf(t.deps.db);
  /** The booking history's rows, in the order they were written. */
  const historyRows = () => {
    const { bookingHistory } = tables();
    return t.deps.db.select().from(bookingHistory).orderBy(asc(bookingHistory.seq));
  };
  /**
   * One statement straight on the engine's connection, past the app's query builder, as a maintenance
   * script would run it: better-sqlite3's on SQLite, the pool's on PostgreSQL.
   */
  const rawStatement = async (statement: string): Promise<void> => {
    if (t.engine === 'sqlite') t.deps.sqlite.prepare(statement).run();
    else await (t.deps.db as unknown as PgDb).$client.query(statement);
  };
  /** The message of the database's refusal, however the driver wraps it (drizzle puts it in `cause`). */
  const refusalOf = async (attempt: () => Promise<unknown>): Promise<string> => {
    try {
      await attempt();
    } catch (error) {
      const { message, cause } = error as Error;
      return cause instanceof Error ? `${message} ${cause.message}` : message;
    }
    return 'no refusal';
  };

  const call = async (kind: 'query' | 'mutation', name: string, input: unknown, cookie?: string) => {
    const res = await callProcedure(t, kind, name, input, { cookie });
    expect(res.status, `${name}: ${JSON.stringify(res.body.error)}`).toBe(200);
    return res.data;
  };
  const historyOf = async (bookingId: string) =>
    (
      (await call(
        'query',
        'eventBookings.booking',
        { eventId: w.event.eventId, bookingId },
        w.people.owner.cookie,
      )) as {
        history: {
          kind: string;
          actor: string;
          actorName: string | null;
          at: string;
          details: Record<string, unknown>;
        }[];
      }
    ).history;
  const minute = () => t.clock.advance(60_000);

  it('records each change with its actor and time, in order, from buying to the refund', async () => {
    const { buyer, bookingId } = await buyTickets(t, w.event, 1);
    const bought = t.clock.now().toISOString();
    minute();
    await call(
      'mutation',
      'invoices.addBuyerGstin',
      {
        bookingId,
        buyerGstin: '29aagcb7383j1z4',
        buyerLegalName: 'Verma Consulting',
        buyerAddress: '4 MG Road, Pune 411001',
      },
      buyer.cookie,
    );
    minute();
    const recipient = await signedInUser(t, { email: 'meera@example.com', name: 'Meera Iyer' });
    const offer = { bookingId, name: 'Meera Iyer', email: 'meera@example.com', mobile: '' };
    await call('mutation', 'transfers.start', offer, buyer.cookie);
    await call('mutation', 'transfers.cancel', { bookingId }, buyer.cookie);
    await call('mutation', 'transfers.start', offer, buyer.cookie);
    const { outbox } = tables();
    const mail = (
      await t.deps.db.select().from(outbox).where(eq(outbox.to, 'meera@example.com')).orderBy(asc(outbox.id))
    ).at(-1);
    const token = /\/transfers\/([\w-]+)/.exec(mail?.text ?? '')![1]!;
    await call('mutation', 'transfers.accept', { token }, recipient.cookie);
    minute();
    await call(
      'mutation',
      'organiser.updateSlotTime',
      {
        eventId: w.event.eventId,
        version: await versionOn(t, w.event.eventId),
        slotId: w.event.slotId,
        startTime: '20:00',
        endTime: '23:00',
      },
      w.people['co-organiser'].cookie,
    );
    // Show day, half an hour before the moved start (8 PM India time = 14:30 UTC): the gates are open.
    t.clock.set(new Date('2026-12-05T14:00:00.000Z'));
    const gate = { eventId: w.event.eventId, slotId: w.event.slotId, gate: 'North gate', deviceId: 'd-1' };
    const scanId = randomUUID();
    // The recipient's ticket: the booking's token after one transfer.
    const qr = signTicketToken(t.deps.appSecret, bookingId, 1);
    await call('mutation', 'gate.scan', { ...gate, scanId, token: qr }, w.people['gate staff'].cookie);
    minute();
    await call(
      'mutation',
      'gate.undo',
      { ...gate, undoId: randomUUID(), scanId, reason: 'Scanned the wrong ticket' },
      w.people['gate staff'].cookie,
    );
    minute();
    await call(
      'mutation',
      'eventBookings.cancel',
      { eventId: w.event.eventId, bookingId, refundUsedTickets: true },
      w.people.owner.cookie,
    );

    const history = await historyOf(bookingId);
    expect(history.map((h) => [h.kind, h.actor, h.actorName])).toEqual([
      ['confirmed', 'buyer', buyer.name],
      ['gstin_added', 'buyer', buyer.name],
      ['transfer_offered', 'buyer', buyer.name],
      ['transfer_cancelled', 'buyer', buyer.name],
      ['transfer_offered', 'buyer', buyer.name],
      ['transfer_accepted', 'buyer', 'Meera Iyer'],
      ['rescheduled', 'organiser', w.people['co-organiser'].name],
      ['checked_in', 'gate', w.people['gate staff'].name],
      ['check_in_undone', 'gate', w.people['gate staff'].name],
      ['cancelled', 'organiser', w.people.owner.name],
      ['refund_issued', 'system', null],
    ]);
    // Who: the accounts themselves (names may be empty in fixtures, the ids never are).
    const { bookingHistory } = tables();
    const actors = await t.deps.db
      .select({ kind: bookingHistory.kind, userId: bookingHistory.actorUserId, at: bookingHistory.at })
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingId, bookingId))
      .orderBy(asc(bookingHistory.seq));
    expect(actors.map((a) => a.userId)).toEqual([
      buyer.userId,
      buyer.userId,
      buyer.userId,
      buyer.userId,
      buyer.userId,
      recipient.userId,
      w.people['co-organiser'].userId,
      w.people['gate staff'].userId,
      w.people['gate staff'].userId,
      w.people.owner.userId,
      null,
    ]);
    // When: each at the clock's time of its change, a minute apart where the test moved the clock.
    expect(history[0]!.at).toBe(bought);
    expect(history.at(-1)!.at).toBe(t.clock.now().toISOString());
    expect(history.map((h) => h.at)).toEqual([...history.map((h) => h.at)].sort());
    // What: the facts of each change.
    const details = Object.fromEntries(history.map((h) => [h.kind, h.details]));
    expect(details.gstin_added).toMatchObject({ gstin: '29AAGCB7383J1Z4' });
    expect(details.transfer_accepted).toMatchObject({ toName: 'Meera Iyer' });
    expect(details.rescheduled).toMatchObject({
      fromStart: expect.stringMatching(/T13:30:00.000Z$/),
      toStart: expect.stringMatching(/T14:30:00.000Z$/),
    });
    expect(details.checked_in).toMatchObject({ persons: 1, gate: 'North gate', offline: false });
    expect(details.check_in_undone).toMatchObject({ persons: 1, reason: 'Scanned the wrong ticket' });
    expect(details.cancelled).toMatchObject({ reason: 'organiser', refundPaise: expect.any(Number) });
    expect(details.refund_issued).toMatchObject({ amountPaise: details.cancelled!.refundPaise });
  });

  it('records the code applied at checkout with the booking’s creation', async () => {
    await call(
      'mutation',
      'console.createDiscountCode',
      {
        eventId: w.event.eventId,
        code: {
          code: 'FRIENDS10',
          kind: 'percent',
          percentOff: 10,
          amountOffPaise: null,
          ticketTypeIds: null,
          validFrom: null,
          validUntil: null,
          maxUses: null,
          maxUsesPerBuyer: null,
        },
      },
      w.people.owner.cookie,
    );
    const { bookingId } = await buyTickets(t, w.event, 2, { extra: { discountCode: 'friends10' } });
    const [created] = await historyOf(bookingId);
    expect(created).toMatchObject({
      kind: 'confirmed',
      details: { discountCode: 'FRIENDS10', discountPaise: expect.any(Number) },
    });
    expect(created!.details.discountPaise).toBeGreaterThan(0);
  });

  it('names the buyer, or the slot’s or event’s cancellation, as who cancelled', async () => {
    const own = await buyTickets(t, w.event, 1);
    const bySlot = await buyTickets(t, w.event, 1);
    const byEvent = await buyTickets(t, w.event, 1);
    await runnerFor(t.deps.db).write(function* (db) {
      const tx = db as WriteTx;
      yield* cancelBookingSteps(tx, t.deps, own.bookingId, 'buyer', t.clock.now(), {
        actorUserId: own.buyer.userId,
      });
      yield* cancelBookingSteps(tx, t.deps, bySlot.bookingId, 'slot_cancelled', t.clock.now());
      yield* cancelBookingSteps(tx, t.deps, byEvent.bookingId, 'event_cancelled', t.clock.now());
    });
    const last = async (id: string) => (await historyOf(id)).find((h) => h.kind === 'cancelled');
    expect(await last(own.bookingId)).toMatchObject({ actor: 'buyer', details: { reason: 'buyer' } });
    expect(await last(bySlot.bookingId)).toMatchObject({
      actor: 'system',
      actorName: null,
      details: { reason: 'slot_cancelled' },
    });
    expect(await last(byEvent.bookingId)).toMatchObject({
      actor: 'system',
      details: { reason: 'event_cancelled' },
    });
  });

  it('cannot be changed: the database refuses an UPDATE and a DELETE', async () => {
    const { bookingId } = await buyTickets(t, w.event, 1);
    const { bookingHistory } = tables();
    const before = await historyRows();
    expect(before).toHaveLength(1);
    expect(
      await refusalOf(async () =>
        t.deps.db
          .update(bookingHistory)
          .set({ actor: 'system' })
          .where(eq(bookingHistory.bookingId, bookingId)),
      ),
    ).toMatch(/booking history is append-only/);
    expect(await refusalOf(async () => t.deps.db.delete(bookingHistory))).toMatch(
      /booking history is append-only/,
    );
    // Straight SQL on the connection, as a maintenance script would run it.
    expect(await refusalOf(() => rawStatement('delete from booking_history'))).toMatch(/append-only/);
    expect(await refusalOf(() => rawStatement("update booking_history set kind = 'cancelled'"))).toMatch(
      /append-only/,
    );
    expect(await historyRows()).toEqual(before);
  });

  it('is on the booking page only for those who may see the booking: not gate staff, not another organiser', async () => {
    const { bookingId } = await buyTickets(t, w.event, 1);
    const page = (cookie: string) =>
      callProcedure(t, 'query', 'eventBookings.booking', { eventId: w.event.eventId, bookingId }, { cookie });
    expect((await page(w.people['gate staff'].cookie)).status).toBe(403);
    expect((await page(w.people['organiser of another event'].cookie)).status).toBe(404);
    expect((await page(w.people.admin.cookie)).status).toBe(200);
  });
});
