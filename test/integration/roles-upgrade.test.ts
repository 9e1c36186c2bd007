import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { users } from '../../src-server/db/schema/accounts.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { events, ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { refunds } from '../../src-server/db/schema/payments.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { DEMO_ORGANISER } from '../../src-server/services/roles/ensure-demo-accounts.ts';
import { getAccountRole } from '../../src-server/services/roles/get-account-role.ts';
import { signTicketToken } from '../../src-server/services/tickets/ticket-token.ts';
import { expectInventoryInvariant } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The last migration of the release before roles and ownership. */
const PREVIOUS_RELEASE_LAST = '0002_accounts';
const AT = '2026-11-20T10:00:00.000Z';

/**
 * A database as the previous release left it: its migrations only, a buyer with a real booking (a
 * converted hold, a paid order, the booking, the seats taken from the ticket type) and a gate-staff
 * account, written with that release's columns.
 */
function previousReleaseDatabase(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-upgrade-'));
  const folder = path.join(dataDir, 'old-migrations');
  mkdirSync(path.join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(path.join(ROOT, 'migrations/meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  const last = journal.entries.findIndex((e) => e.tag === PREVIOUS_RELEASE_LAST);
  expect(last).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries) {
    cpSync(path.join(ROOT, `migrations/${tag}.sql`), path.join(folder, `${tag}.sql`));
  }

  const sqlite = new Database(path.join(dataDir, 'jalsa.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  const run = (sql: string, ...params: unknown[]) => sqlite.prepare(sql).run(...params);
  run(
    `insert into users (id, name, email, phone, is_email_verified, booking_ids_list, is_staff, created_at, updated_at)
     values ('old-buyer', 'Old Buyer', 'old-buyer@example.com', '9876543210', 1, '["bk_old_booking_0001"]', 0, ?, ?),
            ('old-staff', 'Old Staff', 'old-staff@example.com', null, 1, '[]', 1, ?, ?)`,
    AT,
    AT,
    AT,
    AT,
  );
  run(
    `insert into events (id, name, description, category, city, images_urls, start_time, end_time, event_location_text, terms_and_conditions, created_at)
     values ('old-event', 'Old Release Night', 'Before organisers', 'concerts', 'Mumbai', '[]', '2026-12-05T13:30:00.000Z', '2026-12-05T17:30:00.000Z', 'NSCI Dome', '[]', ?)`,
    AT,
  );
  run(
    `insert into event_dates (id, event_id, date_of_event, is_live) values ('old-date', 'old-event', '2026-12-04T18:30:00.000Z', 1)`,
  );
  run(
    `insert into slots (id, event_date_id, start_time, end_time) values ('old-slot', 'old-date', '2026-12-05T13:30:00.000Z', '2026-12-05T17:30:00.000Z')`,
  );
  run(
    `insert into ticket_types (id, slot_id, name, price_paise, person_allowed_per_ticket, description, is_refundable, total_tickets, available_tickets, is_live, benefits, position)
     values ('old-type', 'old-slot', 'Gold', 100000, 1, 'Gold entry', 0, 50, 48, 1, '[]', 0)`,
  );
  run(
    `insert into holds (id, user_id, event_id, event_date_id, slot_id, status, details, user_city, subtotal_paise, fee_paise, igst_paise, total_paise, session_expires_at, expires_at, created_at, ended_at)
     values ('old-hold', 'old-buyer', 'old-event', 'old-date', 'old-slot', 'converted', '{"name":"Old Buyer","email":"old-buyer@example.com","phone":"9876543210","state":"Maharashtra"}', 'Mumbai', 200000, 10000, 1800, 211800, ?, ?, ?, ?)`,
    AT,
    AT,
    AT,
    AT,
  );
  run(
    `insert into hold_items (hold_id, ticket_type_id, quantity, price_paise, position) values ('old-hold', 'old-type', 2, 100000, 0)`,
  );
  run(
    `insert into payment_orders (id, gateway, hold_id, user_id, amount_paise, currency, receipt, notes, status, created_at)
     values ('order_old_0001', 'simulator', 'old-hold', 'old-buyer', 211800, 'INR', 'old-hold', '{}', 'paid', ?)`,
    AT,
  );
  run(
    `insert into bookings (id, payment_id, order_id, event_id, slot_id, ticket_date, ticket_slot, ticket_slot_end, ticket_type, ticket_types, ticket_count, user_id, user_name, user_phone, user_email, user_state, user_city, event_name, event_location, subtotal_amount_paise, fee_amount_paise, igst_amount_paise, total_amount_paise, status, is_check_in, total_user_allowed, number_of_user_checked_in, created_at)
     values ('bk_old_booking_0001', 'pay_old_0001', 'order_old_0001', 'old-event', 'old-slot', '2026-12-04T18:30:00.000Z', '2026-12-05T13:30:00.000Z', '2026-12-05T17:30:00.000Z',
             '{"id":"old-type","name":"Gold","pricePaise":100000,"personAllowedPerTicket":1,"description":"Gold entry","isRefundable":false,"totalTickets":50,"availableTickets":48,"isLive":true}',
             '[{"id":"old-type","name":"Gold","pricePaise":100000,"quantity":2,"personAllowedPerTicket":1,"totalPersons":2}]',
             2, 'old-buyer', 'Old Buyer', '9876543210', 'old-buyer@example.com', 'Maharashtra', 'Mumbai', 'Old Release Night', 'NSCI Dome', 200000, 10000, 1800, 211800, 'confirmed', 0, 2, 0, ?)`,
    AT,
  );
  sqlite.close();
  return dataDir;
}

describe('upgrading a database made by the previous release', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it('applies the roles and editor migrations, gives old events the demo organiser as owner, and keeps bookings, staff and check-in working', async () => {
    t = createTestApp({ DATA_DIR: previousReleaseDatabase() });
    const db = t.deps.db;
    const cookieOf = (userId: string) =>
      `${SESSION_COOKIE}=${createSession(db, userId, t!.clock.now()).token}`;

    // Ownership: the old event belongs to the demo organiser, an organiser nobody can sign in as.
    const owner = db.select().from(users).where(eq(users.email, DEMO_ORGANISER.email)).get();
    expect(owner).toMatchObject({ passwordHash: null, googleId: null });
    expect(db.select({ ownerId: events.ownerId }).from(events).get()).toEqual({ ownerId: owner!.id });
    // The editor's migration: the old event is published at version 1, its ticket type sells with no
    // window and the old per-order limit; buyers still see it.
    expect(db.select({ status: events.status, version: events.version }).from(events).get()).toEqual({
      status: 'published',
      version: 1,
    });
    const oldType = db.select().from(ticketTypes).get();
    expect(oldType).toMatchObject({ maxPerOrder: 10, saleOpensAt: null, saleClosesAt: null });
    const detail = await callProcedure(t, 'query', 'events.byId', { id: 'old-event' });
    expect(detail.status).toBe(200);
    expect(await getAccountRole(db, owner!.id)).toBe('organiser');
    // Existing accounts keep no role and their staff flag.
    expect(await getAccountRole(db, 'old-buyer')).toBe('none');
    expect(await getAccountRole(db, 'old-staff')).toBe('none');
    expectInventoryInvariant(db);

    // The buyer still sees the booking.
    const mine = await callProcedure(t, 'query', 'bookings.mine', undefined, {
      cookie: cookieOf('old-buyer'),
    });
    expect(mine.status).toBe(200);
    expect((mine.data as { id: string }[]).map((b) => b.id)).toEqual(['bk_old_booking_0001']);

    // The demo organiser's console shows the old sale, counted by the database.
    const home = await callProcedure(t, 'query', 'console.myEvents', undefined, {
      cookie: cookieOf(owner!.id),
    });
    expect(home.data).toMatchObject([
      {
        id: 'old-event',
        myRole: 'owner',
        status: 'on_sale',
        sold: 2,
        capacity: 50,
        ticketRevenuePaise: 200_000,
        payablePaise: 200_000,
      },
    ]);

    // The old staff flag became gate staff of the events that existed (the gate's migration, 0016): the ticket
    // still checks in, at /gate, with the event's rights.
    const old = db.select({ slotId: bookings.slotId }).from(bookings).get()!;
    const checkIn = await callProcedure(
      t,
      'mutation',
      'gate.scan',
      {
        eventId: 'old-event',
        slotId: old.slotId,
        gate: 'Main gate',
        deviceId: 'd1',
        scanId: 'scan-upgrade-0001',
        token: signTicketToken(t.deps.appSecret, 'bk_old_booking_0001'),
        persons: 1,
      },
      { cookie: cookieOf('old-staff') },
    );
    expect(checkIn.status).toBe(200);
    expect(db.select({ n: bookings.numberOfUserCheckedIn }).from(bookings).get()).toEqual({ n: 1 });

    // This wave's console reads the old sale, and cancelling it goes through the one refund path.
    const ownerCookie = { cookie: cookieOf(owner!.id) };
    const sales = await callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: 'old-event' },
      ownerCookie,
    );
    expect(sales.status).toBe(200);
    expect(sales.data).toMatchObject({ money: { orders: 1 } });
    // On-sale day's migration (0022): the old event has no waiting room, its offers would hold for the
    // default 30 minutes, and the old buyer's waiting list is empty.
    const options = await callProcedure(t, 'query', 'tickets.options', { eventId: 'old-event' });
    expect(options.data).toMatchObject({ waitingRoom: null });
    expect(db.select({ minutes: events.waitlistOfferMinutes }).from(events).get()).toEqual({ minutes: 30 });
    const waitlist = await callProcedure(t, 'query', 'waitlist.mine', undefined, {
      cookie: cookieOf('old-buyer'),
    });
    expect(waitlist).toMatchObject({ status: 200, data: [] });
    // Checked in above: the cancel needs the organiser's explicit "refund anyway" (issue 35).
    const cancel = await callProcedure(
      t,
      'mutation',
      'eventBookings.cancel',
      { eventId: 'old-event', bookingId: 'bk_old_booking_0001', refundUsedTickets: true },
      ownerCookie,
    );
    expect(cancel.status).toBe(200);
    expect(db.select({ status: bookings.status }).from(bookings).get()).toEqual({ status: 'cancelled' });
    expect(db.select().from(refunds).get()).toMatchObject({
      bookingId: 'bk_old_booking_0001',
      amountPaise: 211_800,
    });
    expectInventoryInvariant(db);
  });
});
