import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { getPlatformTotals } from '../../src-server/services/admin/get-platform-totals.ts';
import { listAllEvents } from '../../src-server/services/admin/list-all-events.ts';
import { listOrganisers } from '../../src-server/services/admin/list-organisers.ts';
import { lookUpOrders } from '../../src-server/services/box-office/look-up-orders.ts';
import { recordBoxOfficeSale } from '../../src-server/services/box-office/record-box-office-sale.ts';
import { listMyEvents } from '../../src-server/services/console/list-my-events.ts';
import { refundBookingPart } from '../../src-server/services/partial-refunds/refund-booking-part.ts';
import { getPayoutStatement, payoutMonths } from '../../src-server/services/sales/get-payout-statement.ts';
import { getSalesDashboard } from '../../src-server/services/sales/get-sales-dashboard.ts';
import { getSalesOverTime } from '../../src-server/services/sales/get-sales-over-time.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { addTeamMember, createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent, type TicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

// Issue 38: the organiser's and the admin's reports (the Sales page's panels, the chart, the payout
// statement, the console's and the admin's lists, the platform's totals, the box office's look-up) are
// hand-written SQL aggregates. They run on both engines, and on the same rows they answer the same: the
// installation is made on SQLite, each report read there, then the installation is moved to
// PostgreSQL and every report read again.

const serverUrl = testPostgresUrl('engine-sales-reports.test.ts');
const DAY = 86_400_000;

let t: TestApp;
let target: ScratchPostgres | undefined;
let pg: PgDb | undefined;
let ownerId: string;
let helperId: string;
let ev: TicketedEvent;

/** Every report, read on one engine at the test clock's instant. */
async function reports(db: Db) {
  const now = t.clock.now();
  return {
    dashboard: await getSalesDashboard(db, ev.eventId, now),
    byDay: await getSalesOverTime(db, ev.eventId, 'day'),
    byHour: await getSalesOverTime(db, ev.eventId, 'hour'),
    payout: await getPayoutStatement(db, ev.eventId, undefined),
    payoutNovember: await getPayoutStatement(db, ev.eventId, '2026-11'),
    payoutMonths: await payoutMonths(db, ev.eventId),
    ownersEvents: await listMyEvents(db, ownerId, now),
    helpersEvents: await listMyEvents(db, helperId, now),
    allEvents: await listAllEvents(db, 1, now),
    organisers: await listOrganisers(db, 1),
    totals: await getPlatformTotals(db),
    lookUp: await lookUpOrders(db, ev.eventId, 'WALK'),
  };
}

let onSqlite: Awaited<ReturnType<typeof reports>>;

beforeAll(async () => {
  t = createTestApp();
  appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const owner = createAccount(t, 'organiser');
  ownerId = owner.userId;
  await saveTaxProfile(t, ownerId);
  ev = createTicketedEvent(t.deps.db, {
    name: 'Sunburn Arena Mumbai',
    city: 'Mumbai',
    types: [
      { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
      { name: 'Silver', pricePaise: 50_000, totalTickets: 40 },
    ],
  });
  createTicketedEvent(t.deps.db, { name: 'Open Mic Pune' });
  t.deps.db.update(events).set({ ownerId }).where(eq(events.id, ev.eventId)).run();
  helperId = createAccount(t).userId;
  addTeamMember(t, ev.eventId, helperId, 'gate_staff');

  // November: two Gold, four Silver; one Silver booking cancelled by the organiser (a full refund and a
  // credit note), part of the Gold one refunded, a comp and a cash sale at the door, people let in.
  const gold = await buyTickets(t, ev, 2);
  const silver = { ...ev, ticketTypeIds: [ev.ticketTypeIds[1]!] };
  await buyTickets(t, silver, 3);
  t.clock.advance(3 * 3_600_000);
  const cancelled = await buyTickets(t, silver, 1);
  const cancel = await callProcedure(
    t,
    'mutation',
    'eventBookings.cancel',
    { eventId: ev.eventId, bookingId: cancelled.bookingId },
    { cookie: owner.cookie },
  );
  expect(cancel.status, JSON.stringify(cancel.body.error)).toBe(200);
  await refundBookingPart(
    t.deps,
    ev.eventId,
    {
      bookingId: gold.bookingId,
      allButFee: false,
      amountPaise: 30_000,
      reason: 'Obstructed view',
      cancelTickets: [],
    },
    ownerId,
  );
  for (const [kind, name] of [
    ['comp', 'Walker Guest'],
    ['door', 'Walk-in Ravi'],
  ] as const) {
    await recordBoxOfficeSale(t.deps, ev.eventId, ownerId, {
      kind,
      input: {
        eventId: ev.eventId,
        slotId: ev.slotId,
        lines: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 1 }],
        name,
        email: `${kind}@example.com`,
        phone: '9820012345',
        ...(kind === 'comp' ? { reason: "Artist's guest" } : { method: 'cash' as const }),
      },
    });
  }
  t.deps.db.run(sql`update bookings set number_of_user_checked_in = 1 where id = ${gold.bookingId}`);
  // December (India time): one more Gold, and a buyer at the payment step now.
  t.clock.advance(12 * DAY);
  await buyTickets(t, ev, 1);
  await proceed(t, createAccount(t).cookie, silver, 2);

  onSqlite = await reports(t.deps.db);
  if (serverUrl) {
    target = await moveToScratchPostgres(t, serverUrl, 'jalsa_reports');
    pg = await openPostgres(target.url, { poolSize: 2 });
  }
}, 60_000);

afterAll(async () => {
  await pg?.$client.end();
  await target?.drop();
  t?.close();
});

describe('the reports on SQLite', () => {
  it('count what happened: money, refunds, door sales, people in, two months, a hold', () => {
    const { dashboard, payout, payoutMonths: months, ownersEvents, helpersEvents, lookUp } = onSqlite;
    expect(dashboard.money).toMatchObject({ orders: 6, cancelledOrders: 1, compOrders: 1, doorSales: 1 });
    expect(dashboard.money.refundsPaise).toBeGreaterThan(30_000);
    expect(dashboard.ticketTypes.map((type) => [type.name, type.sold, type.held])).toEqual([
      ['Gold', 5, 0],
      ['Silver', 3, 2],
    ]);
    expect(dashboard.checkIns).toMatchObject({ peopleAdmitted: 1, bookingsCheckedIn: 1 });
    expect(payout.months).toEqual(['2026-12', '2026-11']);
    expect(months.months.map((m) => m.month)).toEqual(['2026-11', '2026-12']);
    expect(months.total.payablePaise).toBe(dashboard.money.payablePaise);
    expect(ownersEvents.map((e) => [e.name, e.myRole, e.sold, e.status])).toEqual([
      ['Sunburn Arena Mumbai', 'owner', 8, 'on_sale'],
    ]);
    // Gate staff see the event, not its takings.
    expect(helpersEvents[0]).toMatchObject({ myRole: 'gate_staff', ticketRevenuePaise: null });
    expect(lookUp.map((order) => order.userName).sort()).toEqual(['Walk-in Ravi', 'Walker Guest']);
  });
});

describe.skipIf(serverUrl === undefined)('the same reports on PostgreSQL, after the move', () => {
  it('answer exactly what SQLite answered over the same rows', async () => {
    const onPostgres = await reports(pg as unknown as Db);
    for (const report of Object.keys(onSqlite) as (keyof typeof onSqlite)[]) {
      expect(onPostgres[report], report).toEqual(onSqlite[report]);
    }
  });
});
