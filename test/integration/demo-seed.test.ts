import { count, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { ticketTypes } from '../../src-server/db/schema/catalog.ts';
import { DEMO_AUDIENCE } from '../../src-server/db/seed/demo-sales.ts';
import { seedDemoData } from '../../src-server/db/seed/seed.ts';
import { expectInventoryInvariant, inventoryCounts } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

describe('demo data', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp();
  });
  afterEach(() => t.close());

  it('keeps the inventory rule: a sold-out demo type is sold to real (demo) bookings', () => {
    seedDemoData(t.deps.db, t.clock);
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

  it('is added once: seeding again adds no events, ticket types or bookings', () => {
    expect(seedDemoData(t.deps.db, t.clock)).toBeGreaterThanOrEqual(24);
    const before = {
      types: t.deps.db.select({ n: count() }).from(ticketTypes).get()?.n,
      bookings: t.deps.db.select({ n: count() }).from(bookings).get()?.n,
    };
    expect(seedDemoData(t.deps.db, t.clock)).toBe(0);
    expect(t.deps.db.select({ n: count() }).from(ticketTypes).get()?.n).toBe(before.types);
    expect(t.deps.db.select({ n: count() }).from(bookings).get()?.n).toBe(before.bookings);
  });
});
