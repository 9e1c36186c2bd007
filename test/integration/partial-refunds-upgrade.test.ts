/**
 * ADR 0043: part refunds came as two new tables beside `refunds` and `credit_notes`, whose unique keys
 * stay. A database written before them, with a real whole refund and credit note, upgrades and still
 * reads the same; an older release's `ON CONFLICT (payment_id)` still has its unique index to work on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../../src-server/db/client.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { creditNotes } from '../../src-server/db/schema/invoices.ts';
import { partialCreditNotes } from '../../src-server/db/schema/partial-refunds.ts';
import { refunds } from '../../src-server/db/schema/payments.ts';
import { PART_REFUND_REFUSALS } from '../../src-server/services/partial-refunds/refund-part-in.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

let upgraded: TestApp | undefined;
afterEach(() => upgraded?.close());

it('a database with a whole refund and credit note from before part refunds upgrades and reads the same', async () => {
  // Sales and a whole cancellation, then the database put back as the release before this one left it:
  // the part-refund tables gone and their migration not applied.
  const before = createTestApp();
  const organiser = createAccount(before, 'organiser');
  await saveTaxProfile(before, organiser.userId);
  const ev = createTicketedEvent(before.deps.db, {
    types: [{ name: 'Floor', pricePaise: 118_000, totalTickets: 20 }],
    platformFeeRate: 10,
  });
  before.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId)).run();
  const cancelled = await buyTickets(before, ev, 2);
  const kept = await buyTickets(before, ev, 2);
  const cancel = await callProcedure(
    before,
    'mutation',
    'eventBookings.cancel',
    { eventId: ev.eventId, bookingId: cancelled.bookingId },
    { cookie: organiser.cookie },
  );
  expect(cancel.data).toEqual({ cancelled: true });
  const refundBefore = before.deps.db.select().from(refunds).all();
  const notesBefore = before.deps.db.select().from(creditNotes).all();
  expect(refundBefore).toMatchObject([{ amountPaise: 263_848, status: 'processed' }]);
  // One whole note per invoice, each in its issuer's own series (organiser, platform).
  expect(notesBefore.map((n) => n.number)).toEqual(['CRN/26-27/000001', 'CRN/26-27/000001']);

  // Back to the release before: this migration and every later one un-applied (the migrator only runs
  // migrations newer than the last one recorded), the tables they created dropped.
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const ours = journal.entries.find((e) => e.tag.endsWith('_partial_refunds'))!;
  const sqlite = before.deps.db.$client;
  for (const entry of journal.entries.filter((e) => e.when >= ours.when).reverse()) {
    const migration = readFileSync(path.join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), 'utf8');
    const statements = migration.split('--> statement-breakpoint').map((statement) => statement.trim());
    // Last first: an index goes before the columns it covers.
    for (const statement of statements.reverse()) {
      const created = /^CREATE TABLE `([a-z0-9_]+)`/.exec(statement)?.[1];
      const added = /^ALTER TABLE `([a-z0-9_]+)` ADD `([a-z0-9_]+)`/.exec(statement);
      const index = /^CREATE (?:UNIQUE )?INDEX `([a-z0-9_]+)`/.exec(statement)?.[1];
      if (created) sqlite.exec(`drop table ${created}`);
      else if (added) sqlite.exec(`alter table ${added[1]} drop column ${added[2]}`);
      else if (index) sqlite.exec(`drop index ${index}`);
      // A data copy into added columns (commented first) goes with them.
      else if (!/^(--[^\n]*\n)*UPDATE /.test(statement))
        throw new Error(`rewinding ${entry.tag}: teach this test to undo "${statement.slice(0, 60)}"`);
    }
    sqlite.prepare('delete from __drizzle_migrations where created_at = ?').run(entry.when);
  }
  sqlite.close();

  // The new release opens it: the migration adds the two tables, nothing else changes.
  upgraded = createTestApp({ DATA_DIR: before.dataDir });
  const db = upgraded.deps.db;
  expect(db.select().from(refunds).all()).toEqual(refundBefore);
  expect(db.select().from(creditNotes).all()).toEqual(notesBefore);
  const unique = (table: string, column: string) =>
    (
      upgraded!.deps.db.$client
        .prepare(`select name, "unique" as u from pragma_index_list('${table}')`)
        .all() as {
        name: string;
        u: number;
      }[]
    ).some(
      (i) =>
        i.u === 1 &&
        (
          upgraded!.deps.db.$client.prepare(`select name from pragma_index_info('${i.name}')`).all() as {
            name: string;
          }[]
        )
          .map((c) => c.name)
          .join() === column,
    );
  expect(unique('refunds', 'payment_id')).toBe(true);
  expect(unique('credit_notes', 'invoice_id')).toBe(true);

  // The organiser's page reads the old booking as before: refunded in full, nothing left to refund.
  const page = await callProcedure(
    upgraded,
    'query',
    'eventBookings.booking',
    { eventId: ev.eventId, bookingId: cancelled.bookingId },
    { cookie: organiser.cookie },
  );
  expect(page.data).toMatchObject({
    status: 'cancelled',
    refund: { status: 'processed', amountPaise: 263_848 },
    partRefunds: { parts: [], refundableLeft: { totalPaise: 0, feePaise: 0 } },
  });
  const refundPart = (bookingId: string) =>
    callProcedure(
      upgraded!,
      'mutation',
      'eventBookings.refundPart',
      { eventId: ev.eventId, bookingId, amountPaise: 10_000, reason: 'Goodwill' },
      { cookie: organiser.cookie },
    );
  expect((await refundPart(cancelled.bookingId)).body.error?.message).toBe(PART_REFUND_REFUSALS.cancelled);

  // A part refund of the other booking numbers its credit note after the old whole one: one series.
  expect((await refundPart(kept.bookingId)).status).toBe(200);
  expect(db.select({ number: partialCreditNotes.number }).from(partialCreditNotes).all()).toEqual([
    { number: 'CRN/26-27/000002' },
  ]);
  expectInventoryInvariant(db);
});
