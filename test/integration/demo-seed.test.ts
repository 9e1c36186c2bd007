import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatInIndia } from '../../shared/dates.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { eventDates, events, slots, ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { DEMO_AUDIENCE } from '../../src-server/db/seed/demo-sales.ts';
import { seedDemoData } from '../../src-server/db/seed/seed.ts';
import { DEMO_ORGANISER } from '../../src-server/services/roles/ensure-demo-accounts.ts';
import { expectInventoryInvariant, inventoryCounts } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

describe('demo data', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp();
  });
  afterEach(() => t.close());

  it('keeps the inventory rule: a sold-out demo type is sold to real (demo) bookings', async () => {
    await seedDemoData(t.deps.db, t.clock);
    expectInventoryInvariant(t.deps.db);
    const soldOut = inventoryCounts(t.deps.db).filter((c) => c.total > 0 && c.available === 0);
    expect(soldOut.length).toBeGreaterThan(0);
    for (const c of soldOut) expect(c.sold).toBe(c.total);
    // No demo order is bigger than the per-order limit.
    const lines = t.deps.db.select({ count: bookings.ticketCount }).from(bookings).all();
    expect(Math.max(...lines.map((l) => l.count))).toBeLessThanOrEqual(10);
    expect(t.deps.db.select().from(bookings).where(eq(bookings.userId, DEMO_AUDIENCE.id)).all()).toHaveLength(
      lines.length,
    );
  });

  it('is added once: seeding again adds no events, ticket types or bookings', async () => {
    expect(await seedDemoData(t.deps.db, t.clock)).toBeGreaterThanOrEqual(24);
    const before = {
      types: t.deps.db.select({ n: count() }).from(ticketTypes).get()?.n,
      bookings: t.deps.db.select({ n: count() }).from(bookings).get()?.n,
    };
    expect(await seedDemoData(t.deps.db, t.clock)).toBe(0);
    expect(t.deps.db.select({ n: count() }).from(ticketTypes).get()?.n).toBe(before.types);
    expect(t.deps.db.select({ n: count() }).from(bookings).get()?.n).toBe(before.bookings);
  });

  it('is made through the event editor: published events of the demo organiser', async () => {
    await seedDemoData(t.deps.db, t.clock);
    const rows = t.deps.db.select().from(events).all();
    expect(rows.length).toBeGreaterThanOrEqual(24);
    for (const row of rows) {
      expect(row).toMatchObject({ ownerId: DEMO_ORGANISER.id, status: 'published' });
      // Every editor step raised the version: created, then dates, slots, ticket types, published.
      expect(row.version).toBeGreaterThan(4);
    }
    // The editor named the dates, slots and ticket types; the events keep their fixed ids.
    expect(rows.map((r) => r.id)).toContain('sufi-nights-delhi');
    const typeIds = t.deps.db.select({ id: ticketTypes.id }).from(ticketTypes).all();
    expect(typeIds.length).toBeGreaterThan(0);
    for (const { id } of typeIds) expect(id).toMatch(/^tt-/);
  });

  it('gives the street food carnival an Entry ticket and runs the garba night to midnight', async () => {
    await seedDemoData(t.deps.db, t.clock);
    const typesOf = (eventId: string) =>
      t.deps.db
        .select({ name: ticketTypes.name, pricePaise: ticketTypes.pricePaise })
        .from(ticketTypes)
        .innerJoin(slots, eq(slots.id, ticketTypes.slotId))
        .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
        .where(eq(eventDates.eventId, eventId))
        .all();
    expect(typesOf('chennai-street-food-carnival')).toEqual([
      { name: 'Entry', pricePaise: 19900 },
      { name: 'Entry', pricePaise: 19900 },
    ]);
    const garba = t.deps.db
      .select({ startTime: slots.startTime, endTime: slots.endTime })
      .from(slots)
      .innerJoin(eventDates, eq(eventDates.id, slots.eventDateId))
      .where(eq(eventDates.eventId, 'garba-night-ahmedabad'))
      .get()!;
    // 20:00 for 240 minutes: midnight, India time, at the start of the next day.
    expect(formatInIndia(garba.startTime, 'HH:mm')).toBe('20:00');
    expect(formatInIndia(garba.endTime, 'HH:mm')).toBe('00:00');
    expect(Date.parse(garba.endTime) - Date.parse(garba.startTime)).toBe(240 * 60_000);
  });
});
