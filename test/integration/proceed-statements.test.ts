import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscountCode } from '../../src-server/services/discounts/create-discount-code.ts';
import { createQuota } from '../../src-server/services/quotas/create-quota.ts';
import {
  createTicketedEvent,
  DETAILS,
  expectInventoryInvariant,
  type TicketedEvent,
} from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

/**
 * Proceed's statements (issue 40's flash-sale benchmark: "Proceed's CPU within 10 % of today's").
 * Most of a Proceed's CPU is SQLite statements and Drizzle's work around each (docs/benchmarks.md),
 * so the number of statements one Proceed runs is the benchmark's figure made exact: a plain Proceed
 * runs no more than before the box office, and a discount code with a per-buyer limit plus a shared
 * capacity add a fixed few (ADR 0047), never a look-up per feature the event does not use.
 * `LOG_SQL=1` prints each statement the count takes in.
 */
let t: TestApp;
afterEach(() => {
  if (t) expectInventoryInvariant(t.deps.db);
  t?.close();
});

/** Statements run (better-sqlite3's run/get/all/iterate) while `work` runs. */
async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
  const proto = Object.getPrototypeOf(t.deps.db.$client.prepare('select 1')) as Statement;
  const methods = ['run', 'get', 'all', 'iterate'] as const;
  const originals = methods.map((m) => proto[m]);
  let count = 0;
  methods.forEach((m, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    (proto as unknown as Record<string, unknown>)[m] = function (this: unknown, ...args: unknown[]) {
      count += 1;
      if (process.env.LOG_SQL) console.log('SQL', (this as { source: string }).source.slice(0, 150));
      return original.apply(this, args);
    };
  });
  try {
    await work();
  } finally {
    methods.forEach((m, i) => {
      (proto as unknown as Record<string, unknown>)[m] = originals[i];
    });
  }
  return count;
}

function proceed(ev: TicketedEvent, cookie: string, discountCode?: string) {
  return callProcedure(
    t,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[0]!, quantity: 1 }],
      ticketDetails: DETAILS,
      ...(discountCode && { discountCode }),
    },
    { cookie },
  );
}

/** A fresh buyer's first Proceed, after a warm-up Proceed by another buyer (statements prepared). */
async function statementsOfProceed(ev: TicketedEvent, discountCode?: string): Promise<number> {
  const warmUp = await proceed(ev, createSignedInUser(t).cookie, discountCode);
  expect(warmUp.status, JSON.stringify(warmUp.body)).toBe(200);
  const { cookie } = createSignedInUser(t);
  let status = 0;
  const count = await statementsDuring(async () => {
    status = (await proceed(ev, cookie, discountCode)).status;
  });
  expect(status).toBe(200);
  return count;
}

describe("Proceed's statements", () => {
  it('a plain Proceed runs no look-up for codes, quotas, questions or hidden types it does not use; a code and a quota add three', async () => {
    t = createTestApp();
    const types = [{ name: 'General', pricePaise: 50_000, totalTickets: 100 }];
    const plainEvent = createTicketedEvent(t.deps.db, { types });
    const boxEvent = createTicketedEvent(t.deps.db, { types });
    const now = t.clock.now();
    await createQuota(
      t.deps.db,
      boxEvent.eventId,
      { name: 'Hall', capacity: 80, slotIds: [boxEvent.slotId], ticketTypeIds: boxEvent.ticketTypeIds },
      now,
    );
    await createDiscountCode(
      t.deps.db,
      boxEvent.eventId,
      {
        code: 'RUSH10',
        kind: 'percent',
        percentOff: 10,
        amountOffPaise: null,
        ticketTypeIds: null,
        validFrom: null,
        validUntil: null,
        maxUses: 50,
        maxUsesPerBuyer: 1,
        unlocksTicketTypeIds: null,
      },
      now,
    );

    const plain = await statementsOfProceed(plainEvent);
    const boxOffice = await statementsOfProceed(boxEvent, 'rush10');

    // v0.2.0's plain Proceed (before the box office) ran 33 statements here; the box office first
    // made it 39 (a hidden-type, a quota and two question look-ups before the order, a hidden-type and
    // a quota look-up under the lock), and a code with a quota 9 more.
    expect(plain, 'statements of a plain Proceed (LOG_SQL=1 lists them)').toBeLessThanOrEqual(33);
    // The code: its terms with the buyer's uses before the order (one SELECT) and its use (one UPDATE
    // deciding both limits) under the lock, the use written onto the hold's own row by the hold's
    // INSERT; the quota: one conditional UPDATE, its members read with the type's row. (Was 9: the
    // same three reads twice; then 5, the terms and the uses read apart; then 4, with a
    // `hold_discounts` row of its own.)
    expect(boxOffice - plain, 'statements a code and a quota add to a Proceed').toBeLessThanOrEqual(3);
  });
});
