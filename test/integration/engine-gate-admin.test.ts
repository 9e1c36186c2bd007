import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGANISER_MESSAGES } from '../../shared/organiser-schemas.ts';
import { WAITLIST_MESSAGES } from '../../shared/waitlist-schemas.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import type { WriteTx } from '../../src-server/db/write-transaction.ts';
import { NOT_ON_HOLD, releaseEventHold } from '../../src-server/services/admin/release-event-hold.ts';
import { unpublishAnyEvent } from '../../src-server/services/admin/unpublish-any-event.ts';
import { gateDashboard } from '../../src-server/services/gate/gate-dashboard.ts';
import { listGateEvents } from '../../src-server/services/gate/gate-events.ts';
import { listTicketAdmissions } from '../../src-server/services/gate/list-ticket-admissions.ts';
import { lookUpTickets } from '../../src-server/services/gate/look-up-tickets.ts';
import { mergeOfflineScans } from '../../src-server/services/gate/merge-offline-scans.ts';
import { recordScan } from '../../src-server/services/gate/record-scan.ts';
import { syncSlot } from '../../src-server/services/gate/sync-slot.ts';
import type { Mailer } from '../../src-server/services/mail/mailer.ts';
import { enqueueMailSteps } from '../../src-server/services/mail/outbox.ts';
import { sendDueMail } from '../../src-server/services/mail/sender.ts';
import { decideOrganiserRequest } from '../../src-server/services/organiser-requests/decide-organiser-request.ts';
import { getMyOrganiserRequest } from '../../src-server/services/organiser-requests/get-my-organiser-request.ts';
import { listOrganiserRequests } from '../../src-server/services/organiser-requests/list-organiser-requests.ts';
import { submitOrganiserRequest } from '../../src-server/services/organiser-requests/submit-organiser-request.ts';
import { getAccountRole } from '../../src-server/services/roles/get-account-role.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { joinWaitlist } from '../../src-server/services/waitlist/join-waitlist.ts';
import { leaveWaitlist } from '../../src-server/services/waitlist/leave-waitlist.ts';
import { listMyWaitlist } from '../../src-server/services/waitlist/my-waitlist.ts';
import { createBooking } from '../helpers/bookings.ts';
import { createAccount, createOwnedEvent } from '../helpers/console-world.ts';
import { createTicketedEvent, DETAILS } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { createSignedInUser } from '../helpers/users.ts';

// Issue 38: the gate's reads, the waiting list, the admin's event actions, organiser requests and the
// outbox sender, written once and run on both engines by the same calls. An installation made by the
// app on SQLite (accounts, an event with bookings admitted at two gates and a double entry, a sold-out
// type, a published event) is moved to PostgreSQL; the gate's reads then answer alike on both, and each
// engine runs the same use cases on its own copy. On PostgreSQL two pools play two app servers: two
// mail senders racing over one outbox send each mail once; ten joins of one account at once leave
// one entry; two admins deciding one request decide it once.

const serverUrl = testPostgresUrl('engine-gate-admin.test.ts');
const LINKS = { base: 'https://jalsa.example', supportEmail: 'support@jalsa.example' };
let t: TestApp;
let target: ScratchPostgres | undefined;
let pools: PgDb[] = [];

interface World {
  admin: string;
  secondAdmin: string;
  organiser: string;
  /** The gate's event, owned by `organiser`: two bookings on one slot, admitted, one twice. */
  gate: { eventId: string; slotId: string; asha: string; ravi: string };
  /** A sold-out type and the verified buyers who queue for it. */
  soldOut: { typeId: string; buyers: string[] };
  /** A published event of the organiser's, for the admin to take down. */
  published: string;
  /** Accounts that ask to become organisers. */
  requesters: string[];
}
let w: World;

beforeAll(async () => {
  t = createTestApp();
  const now = t.clock.now();
  const organiser = createAccount(t, 'organiser').userId;
  const buyer = createSignedInUser(t).userId;
  const asha = createBooking(t, {
    userId: buyer,
    userName: 'Asha Rao',
    quantity: 1,
    personAllowedPerTicket: 2,
  });
  const where = { eventId: asha.eventId, slotId: asha.row.slotId };
  const ravi = createBooking(t, {
    userId: buyer,
    userName: 'Ravi Kumar',
    quantity: 1,
    personAllowedPerTicket: 1,
    ...where,
  });
  t.deps.db.update(events).set({ ownerId: organiser }).where(eq(events.id, asha.eventId)).run();
  const caller = { eventId: asha.eventId, staffUserId: organiser };
  const secret = t.deps.appSecret;
  // Asha's two people in at two gates; Ravi let in by two offline devices (one of them a double entry).
  const scan = (token: string, gate: string, persons: number) =>
    recordScan(
      t.deps.db,
      secret,
      caller,
      { slotId: where.slotId, gate, deviceId: gate, scanId: randomUUID(), token, persons },
      now,
    );
  await scan(signTicketToken(secret, asha.bookingId), 'North gate', 1);
  await scan(signTicketToken(secret, asha.bookingId), 'South gate', 1);
  for (const gate of ['East gate', 'West gate'])
    await mergeOfflineScans(
      t.deps.db,
      secret,
      caller,
      {
        slotId: where.slotId,
        gate,
        deviceId: gate,
        scans: [
          {
            scanId: randomUUID(),
            token: signTicketToken(secret, ravi.bookingId),
            decision: 'admit',
            persons: 1,
            scannedAt: now.toISOString(),
          },
        ],
      },
      now,
    );
  const soldOut = createTicketedEvent(t.deps.db, {
    // Sold out from the start (none on sale), so the inventory invariant holds with no bookings.
    types: [{ name: 'Gold', pricePaise: 50_000, totalTickets: 0, availableTickets: 0 }],
  });
  w = {
    admin: createAccount(t, 'admin').userId,
    secondAdmin: createAccount(t, 'admin').userId,
    organiser,
    gate: { ...where, asha: asha.bookingId, ravi: ravi.bookingId },
    soldOut: {
      typeId: soldOut.ticketTypeIds[0]!,
      buyers: Array.from({ length: 3 }, () => createSignedInUser(t).userId),
    },
    published: createOwnedEvent(t, organiser).eventId,
    requesters: Array.from({ length: 2 }, () => createSignedInUser(t).userId),
  };
  if (serverUrl) {
    target = await moveToScratchPostgres(t, serverUrl, 'jalsa_gate_admin');
    pools = [
      await openPostgres(target.url, { poolSize: 6 }),
      await openPostgres(target.url, { poolSize: 6 }),
    ];
  }
}, 120_000);

afterAll(async () => {
  for (const pool of pools) await pool.$client.end();
  await target?.drop({ waitForClosing: true });
  t?.close();
});

/** Each engine's database as services see it; on PostgreSQL, `pool` picks one of two app servers. */
const engines: [string, (pool?: number) => Db][] = [['SQLite', () => t.deps.db]];
if (serverUrl) engines.push(['PostgreSQL', (pool = 0) => pools[pool % pools.length] as unknown as Db]);

/** What both engines must answer alike: the gate's reads, from the same installation. */
async function gateReads(db: Db) {
  const { eventId, slotId, asha, ravi } = w.gate;
  const sync = await syncSlot(db, t.deps.appSecret, eventId, { slotId, ticketCursor: 0, feedCursor: 0 });
  return {
    events: (await listGateEvents(db, w.organiser, 'organiser')).filter((e) => e.id === eventId),
    dashboard: await gateDashboard(db, eventId),
    // PostgreSQL's LIKE heeds case; the look-up must not.
    lookUp: await lookUpTickets(db, slotId, 'ASHA'),
    byPhone: (await lookUpTickets(db, slotId, '43210')).map((b) => b.bookingId).sort(),
    history: await listTicketAdmissions(db, eventId, ravi),
    ashaHistory: (await listTicketAdmissions(db, eventId, asha)).map((a) => a.gate),
    sync: {
      ...sync,
      // The list's order and cursor are each engine's own (SQLite's rowid); its content is not.
      tickets: [...sync.tickets].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ticketCursor: undefined,
    },
  };
}

describe('the gate reads alike on both engines', () => {
  it.runIf(serverUrl)(
    'event list, dashboard, counters, double entries, look-up, history and sync',
    async () => {
      const onSqlite = await gateReads(t.deps.db);
      // What the installation holds, so the comparison is of something.
      expect(onSqlite.events).toHaveLength(1);
      expect(onSqlite.dashboard.slots[0]).toMatchObject({ expected: 3, admitted: 3 });
      expect(onSqlite.dashboard.doubleEntryTotals).toEqual({ entries: 1, excess: 1 });
      expect(onSqlite.dashboard.doubleEntries).toHaveLength(1);
      expect(onSqlite.lookUp.map((b) => b.holderName)).toEqual(['Asha Rao']);
      expect(onSqlite.history).toHaveLength(2);
      expect(onSqlite.sync.tickets).toHaveLength(2);
      expect(onSqlite.sync.counters.gates).toHaveLength(4);
      expect(await gateReads(engines[1]![1]())).toEqual(onSqlite);
    },
  );
});

describe.each(engines)('the gate, the waiting list, admin and requests on %s', (_name, dbOf) => {
  it("syncs another device's admission into the feed, with the counters", async () => {
    const db = dbOf();
    const { eventId, slotId, asha } = w.gate;
    const first = await syncSlot(db, t.deps.appSecret, eventId, { slotId, ticketCursor: 0, feedCursor: 0 });
    const scanId = randomUUID();
    const undo = await recordScan(
      db,
      t.deps.appSecret,
      { eventId, staffUserId: w.organiser },
      { slotId, gate: 'Gate 9', deviceId: 'gate-9', scanId, bookingId: asha, persons: 1 },
      t.clock.now(),
    );
    // Asha's two people are already in: refused, and logged.
    expect(undo).toMatchObject({ outcome: 'refuse', reason: 'used' });
    const next = await syncSlot(db, t.deps.appSecret, eventId, {
      slotId,
      ticketCursor: first.ticketCursor,
      feedCursor: first.feedCursor,
    });
    expect(next.feedCursor).toBeGreaterThanOrEqual(first.feedCursor);
    expect(next.counters).toMatchObject({ expected: 3, admitted: 3 });
    expect(next.tickets.map((r) => r[0]).sort()).toEqual(
      first.ticketCursor > 0 ? [] : [w.gate.asha, w.gate.ravi].sort(),
    );
  });

  it('joins and leaves the waiting list, each in their place; a second join is refused', async () => {
    const db = dbOf();
    const [a, b] = w.soldOut.buyers as [string, string];
    const join = (userId: string) =>
      joinWaitlist(
        db,
        userId,
        { ticketTypeId: w.soldOut.typeId, quantity: 1, details: DETAILS },
        t.clock.now(),
      );
    const first = await join(a);
    expect(first.place).toBe(1);
    t.clock.advance(1_000);
    expect((await join(b)).place).toBe(2);
    await expect(join(a)).rejects.toThrow(WAITLIST_MESSAGES.alreadyOnList);
    expect(await listMyWaitlist(db, b)).toMatchObject([
      { status: 'waiting', place: 2, ticketTypeName: 'Gold' },
    ]);
    await leaveWaitlist({ db, env: t.deps.env }, a, first.entryId, t.clock.now());
    expect(await listMyWaitlist(db, a)).toEqual([]);
    expect(await listMyWaitlist(db, b)).toMatchObject([{ place: 1 }]);
  });

  it('an admin takes an event off sale and holds it, then releases the hold once; the owner is mailed', async () => {
    const db = dbOf();
    const { events: eventsOf } = tablesOf(db);
    const state = async () =>
      (
        await db
          .select({ status: eventsOf.status, version: eventsOf.version, heldAt: eventsOf.adminHoldAt })
          .from(eventsOf)
          .where(eq(eventsOf.id, w.published))
      )[0]!;
    const before = await state();
    const { version } = await unpublishAnyEvent(
      db,
      { eventId: w.published, version: before.version, reason: 'Fake listing', adminId: w.admin },
      t.clock.now(),
      LINKS,
    );
    expect(version).toBe(before.version + 1);
    expect(await state()).toMatchObject({ status: 'draft', heldAt: t.clock.now().toISOString() });
    expect(await releaseEventHold(db, w.published, t.clock.now(), LINKS)).toEqual({ released: true });
    await expect(releaseEventHold(db, w.published, t.clock.now(), LINKS)).rejects.toThrow(NOT_ON_HOLD);
    const { outbox } = tablesOf(db);
    const mails = await db
      .select({ key: outbox.idempotencyKey })
      .from(outbox)
      .where(
        inArray(outbox.idempotencyKey, [
          `admin-unpublish:${w.published}:v${version}`,
          `admin-release:${w.published}:${t.clock.now().toISOString()}`,
        ]),
      );
    expect(mails).toHaveLength(2);
  });

  it('an organiser request is submitted once, listed, and decided once', async () => {
    const db = dbOf();
    const [asker] = w.requesters as [string];
    const input = {
      organisationName: 'Sur Sangam Events',
      contactPhone: '9876543210',
      city: 'Pune',
      whatTheyRun: 'Classical concerts',
      gstin: '',
    };
    const { id } = await submitOrganiserRequest(db, asker, input, t.clock.now(), LINKS);
    await expect(submitOrganiserRequest(db, asker, input, t.clock.now(), LINKS)).rejects.toThrow(
      ORGANISER_MESSAGES.alreadyPending,
    );
    expect(await getMyOrganiserRequest(db, asker)).toMatchObject({ id, status: 'pending' });
    expect((await listOrganiserRequests(db))[0]).toMatchObject({ id, status: 'pending', city: 'Pune' });
    // Two admins at once (two app servers on PostgreSQL): one decides, the other is told.
    const decisions = await Promise.allSettled([
      decideOrganiserRequest(
        dbOf(0),
        { requestId: id, approve: true, adminId: w.admin },
        t.clock.now(),
        LINKS,
      ),
      decideOrganiserRequest(
        dbOf(1),
        { requestId: id, approve: true, adminId: w.secondAdmin },
        t.clock.now(),
        LINKS,
      ),
    ]);
    expect(decisions.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    expect(decisions.find((d) => d.status === 'rejected')).toMatchObject({
      reason: { message: ORGANISER_MESSAGES.requestDecided },
    });
    expect(await getAccountRole(db, asker)).toBe('organiser');
    expect(await getMyOrganiserRequest(db, asker)).toMatchObject({ id, status: 'approved' });
  });

  it('two mail senders racing over one outbox send each mail once', async () => {
    const db = dbOf();
    const keys = Array.from({ length: 30 }, (_, i) => `race-${randomUUID()}-${i}`);
    await runnerFor(db).write(function* (tx) {
      for (const key of keys)
        yield* enqueueMailSteps(
          tx as WriteTx,
          { to: 'asha@example.com', subject: 'Hi', html: '<p>Hi</p>', text: 'Hi', idempotencyKey: key },
          t.clock.now(),
        );
    });
    const sent: string[] = [];
    const mailer: Mailer = {
      name: 'test',
      send: async (mail) => {
        // Let the other sender run between a claim and its send.
        await new Promise((resolve) => setTimeout(resolve, 1));
        sent.push(mail.idempotencyKey ?? '');
        return { messageId: `m-${sent.length}` };
      },
    };
    const sender = (pool: number) =>
      sendDueMail({
        db: dbOf(pool),
        mailer,
        from: 'Jalsa <tickets@jalsa.example>',
        clock: t.clock,
        logger: t.deps.logger,
      });
    // A round sends a batch at most: round after round, both senders at once, until nothing is left.
    let sentByRounds = 0;
    for (let round = 0; round < 10; round++) {
      const [one, two] = await Promise.all([sender(0), sender(1)]);
      sentByRounds += one.sent + two.sent;
      if (one.sent + two.sent === 0) break;
    }
    const ours = sent.filter((key) => keys.includes(key));
    expect(ours.sort()).toEqual([...keys].sort());
    expect(new Set(sent).size).toBe(sent.length);
    expect(sentByRounds).toBe(sent.length);
    const { outbox } = tablesOf(db);
    const pending = await db
      .select({ key: outbox.idempotencyKey })
      .from(outbox)
      .where(and(inArray(outbox.idempotencyKey, keys), eq(outbox.status, 'pending')));
    expect(pending).toEqual([]);
  });
});

describe.runIf(serverUrl)('ten joins of one account at once on PostgreSQL', () => {
  it('leave one entry; the others are told the account is already on the list', async () => {
    const buyer = w.soldOut.buyers[2]!;
    const joins = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        joinWaitlist(
          engines[1]![1](i),
          buyer,
          { ticketTypeId: w.soldOut.typeId, quantity: 1, details: DETAILS },
          t.clock.now(),
        ),
      ),
    );
    expect(joins.filter((j) => j.status === 'fulfilled')).toHaveLength(1);
    for (const j of joins.filter((j) => j.status === 'rejected'))
      expect(j).toMatchObject({ reason: { message: WAITLIST_MESSAGES.alreadyOnList } });
    expect(await listMyWaitlist(engines[1]![1](), buyer)).toHaveLength(1);
  });
});
