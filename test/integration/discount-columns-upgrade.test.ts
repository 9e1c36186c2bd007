/**
 * A code's use moved from its own `hold_discounts` row onto the hold's own row (`holds.discount_*`,
 * issue 40's last bar, docs/benchmarks.md). A database written before, with a live hold and a booking
 * priced with a code the old way, upgrades: the migration copies each row onto its hold, and every rule
 * then reads the copy (the per-buyer limit, a use given back by expiry and by cancellation, the
 * organiser's list, the invoice's discount).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, isNotNull } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { DISCOUNT_REFUSALS } from '../../shared/discount-schemas.ts';
import { MIGRATIONS_FOLDER } from '../../src-server/db/client.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { discountCodes, holdDiscounts } from '../../src-server/db/schema/discounts.ts';
import { invoices } from '../../src-server/db/schema/invoices.ts';
import { holds } from '../../src-server/db/schema/payments.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { sweepExpiredHolds } from '../../src-server/services/inventory/holds.ts';
import { confirm, payWithSimulator } from '../helpers/checkout-flow.ts';
import { createAccount } from '../helpers/console-world.ts';
import {
  createTicketedEvent,
  DETAILS,
  expectInventoryInvariant,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

let upgraded: TestApp | undefined;
afterEach(() => upgraded?.close());

function start(t: TestApp, ev: TicketedEvent, cookie: string) {
  return callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 2 }],
      ticketDetails: DETAILS,
      discountCode: 'early',
    },
    { cookie },
  );
}

async function pay(t: TestApp, cookie: string, session: CheckoutSession): Promise<string> {
  const confirmed = await confirm(t, cookie, await payWithSimulator(t, session.orderId));
  expect(confirmed.data).toMatchObject({ outcome: 'booked' });
  return (confirmed.data as { bookingId: string }).bookingId;
}

it('a live hold and a booking priced with a code the old way upgrade onto the hold and keep every rule', async () => {
  const before = createTestApp({ SEED_DEMO_DATA: 'false' });
  const organiser = createAccount(before, 'organiser');
  await saveTaxProfile(before, organiser.userId);
  const ev = createTicketedEvent(before.deps.db, {
    types: [{ name: 'Floor', pricePaise: 100_000, totalTickets: 20 }],
  });
  before.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId)).run();
  const created = await callProcedure(
    before,
    'mutation',
    'console.createDiscountCode',
    {
      eventId: ev.eventId,
      code: {
        code: 'EARLY',
        kind: 'percent',
        percentOff: 10,
        amountOffPaise: null,
        ticketTypeIds: null,
        validFrom: null,
        validUntil: null,
        maxUses: 10,
        maxUsesPerBuyer: 1,
      },
    },
    { cookie: organiser.cookie },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const codeId = (created.data as { id: string }).id;
  // A: a live hold left to expire; B: a live hold paid after the upgrade; C: a booking.
  const [a, b, c] = [createSignedInUser(before), createSignedInUser(before), createSignedInUser(before)];
  expect((await start(before, ev, a.cookie)).status).toBe(200);
  const sessionB = (await start(before, ev, b.cookie)).data as CheckoutSession;
  const bookedC = await pay(before, c.cookie, (await start(before, ev, c.cookie)).data as CheckoutSession);

  // Back to the release before: each hold's use written as its own hold_discounts row, this migration
  // and every later one un-applied (the migrator runs only migrations newer than the last recorded).
  const sqlite = before.deps.db.$client;
  const priced = before.deps.db
    .select()
    .from(holds)
    .where(isNotNull(holds.discountCodeId))
    .orderBy(holds.id)
    .all();
  expect(priced).toHaveLength(3);
  for (const hold of priced) {
    before.deps.db
      .insert(holdDiscounts)
      .values({
        holdId: hold.id,
        discountCodeId: hold.discountCodeId!,
        userId: hold.userId,
        discountPaise: hold.discountPaise!,
        createdAt: hold.createdAt,
        returnedAt: hold.discountReturnedAt,
      })
      .run();
  }
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const ours = journal.entries.find((e) => e.tag.endsWith('_hold_discount_columns'))!;
  for (const entry of journal.entries.filter((e) => e.when >= ours.when).reverse()) {
    const migration = readFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), 'utf8');
    const statements = migration.split('--> statement-breakpoint').map((statement) => statement.trim());
    // Last first: an index goes before the columns it covers.
    for (const statement of statements.reverse()) {
      const added = /^ALTER TABLE `([a-z0-9_]+)` ADD `([a-z0-9_]+)`/.exec(statement);
      const index = /^CREATE INDEX `([a-z0-9_]+)`/.exec(statement)?.[1];
      const table = /^CREATE TABLE `([a-z0-9_]+)`/.exec(statement)?.[1];
      if (added) sqlite.exec(`alter table ${added[1]} drop column ${added[2]}`);
      else if (index) sqlite.exec(`drop index ${index}`);
      else if (table) sqlite.exec(`drop table ${table}`);
      else if (!statement.startsWith('-- Holds priced with a code before'))
        throw new Error(`rewinding ${entry.tag}: teach this test to undo "${statement.slice(0, 60)}"`);
    }
    sqlite.prepare('delete from __drizzle_migrations where created_at = ?').run(entry.when);
  }
  expect(
    sqlite.prepare(`select name from pragma_table_info('holds') where name like 'discount%'`).all(),
  ).toEqual([]);
  sqlite.close();

  // The new release opens it: each hold_discounts row is copied onto its hold.
  upgraded = createTestApp({ SEED_DEMO_DATA: 'false', DATA_DIR: before.dataDir });
  const t = upgraded;
  const db = t.deps.db;
  const copied = db
    .select({
      id: holds.id,
      discountCodeId: holds.discountCodeId,
      discountPaise: holds.discountPaise,
      discountReturnedAt: holds.discountReturnedAt,
    })
    .from(holds)
    .orderBy(holds.id)
    .all();
  expect(copied).toEqual(
    priced.map((h) => ({
      id: h.id,
      discountCodeId: codeId,
      discountPaise: 20_000,
      discountReturnedAt: null,
    })),
  );
  const uses = () => db.select({ uses: discountCodes.uses }).from(discountCodes).get()!.uses;
  expect(uses()).toBe(3);

  // The per-buyer limit counts C's booking made the old way.
  const again = await start(t, ev, c.cookie);
  expect(again.body.error?.message).toBe(DISCOUNT_REFUSALS.alreadyUsed);

  // B pays the hold made the old way: the booking and its invoice carry the code's discount.
  const bookedB = await pay(t, b.cookie, sessionB);
  expect(db.select().from(bookings).where(eq(bookings.id, bookedB)).get()).toMatchObject({
    discountCode: 'EARLY',
    discountPaise: 20_000,
  });
  const admission = db
    .select()
    .from(invoices)
    .where(eq(invoices.bookingId, bookedB))
    .all()
    .find((i) => i.kind === 'admission')!;
  expect(admission.lines).toEqual([
    expect.objectContaining({
      unitPricePaise: 100_000,
      discountPerTicketPaise: 10_000,
      discountCode: 'EARLY',
    }),
  ]);

  // A's hold expires: its use goes back.
  t.clock.advance(3_600_000);
  expect(await sweepExpiredHolds(db, t.clock.now())).toBe(1);
  expect(uses()).toBe(2);

  // The organiser's list: two bookings, ₹400.00 given away; C's cancellation gives its use back.
  const list = () =>
    callProcedure(
      t,
      'query',
      'console.salesDashboard',
      { eventId: ev.eventId },
      { cookie: organiser.cookie },
    );
  expect(((await list()).data as { discountCodes: unknown[] }).discountCodes).toEqual([
    expect.objectContaining({ code: 'EARLY', uses: 2, bookings: 2, discountPaise: 40_000 }),
  ]);
  const cancelled = await callProcedure(
    t,
    'mutation',
    'eventBookings.cancel',
    { eventId: ev.eventId, bookingId: bookedC },
    { cookie: organiser.cookie },
  );
  expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
  expect(uses()).toBe(1);
  expect(((await list()).data as { discountCodes: unknown[] }).discountCodes).toEqual([
    expect.objectContaining({ code: 'EARLY', uses: 1, bookings: 1, discountPaise: 20_000 }),
  ]);
  expect((await start(t, ev, c.cookie)).status).toBe(200);
  expectInventoryInvariant(db);
});
