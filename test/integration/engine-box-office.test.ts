import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecretFor } from '../../src-server/app-secret.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { runStatements } from '../../src-server/db/engine/reads.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { row, rows } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import type { AppDeps } from '../../src-server/deps.ts';
import { DomainError } from '../../src-server/errors.ts';
import { listAddOns } from '../../src-server/services/add-ons/list-add-ons.ts';
import { createAddOn, updateAddOn } from '../../src-server/services/add-ons/save-add-on.ts';
import { recordBoxOfficeSale } from '../../src-server/services/box-office/record-box-office-sale.ts';
import { quoteDiscount } from '../../src-server/services/checkout/quote-discount.ts';
import { ticketOptions } from '../../src-server/services/checkout/ticket-options.ts';
import { reserveSteps } from '../../src-server/services/inventory/holds.ts';
import { partRefundMoneySteps } from '../../src-server/services/partial-refunds/part-refund-money.ts';
import {
  partialCreditNoteForDownloadSteps,
  partialCreditNotePages,
  withPartCreditNotesSteps,
} from '../../src-server/services/partial-refunds/partial-credit-note-reads.ts';
import { refundBookingPart } from '../../src-server/services/partial-refunds/refund-booking-part.ts';
import { createQuota } from '../../src-server/services/quotas/create-quota.ts';
import { listQuotas } from '../../src-server/services/quotas/list-quotas.ts';
import { removeQuota } from '../../src-server/services/quotas/remove-quota.ts';
import { updateQuota } from '../../src-server/services/quotas/update-quota.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent, DETAILS, type TicketedEvent } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

// Issue 38: the organiser's box-office services (shared capacities, add-ons, part refunds) and the
// buyer's ticket options and code quote, written once, run on both engines by the same calls: an
// installation made by the app on SQLite and, for PostgreSQL, moved there. On PostgreSQL the races run
// on two pools at once, as two app servers would.

const serverUrl = testPostgresUrl('engine-box-office.test.ts');
let t: TestApp;
let target: ScratchPostgres | undefined;
let pools: PgDb[] = [];
let ownerId: string;
let buyerIds: string[];
/** The organiser's event: Gold (20) and Silver (40), 2 Gold and 4 Silver sold before the move. */
let ev: TicketedEvent;
let goldBooking: { bookingId: string; paymentId: string };
/** The buyer's event, untouched by the cases: a quota, an add-on with sizes and a code DIWALI10. */
let shop: TicketedEvent;
/** An event with no ticket types: the ticket options give it the §3 fallback on either engine. */
let bare: TicketedEvent;
/** The box office's event in Mumbai: Stalls × 7. */
let door: TicketedEvent;

beforeAll(async () => {
  t = createTestApp();
  appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const owner = createAccount(t, 'organiser');
  ownerId = owner.userId;
  await saveTaxProfile(t, ownerId);
  buyerIds = Array.from({ length: 24 }, () => createSignedInUser(t).userId);
  const types = [
    { name: 'Gold', pricePaise: 118_000, totalTickets: 20 },
    { name: 'Silver', pricePaise: 50_000, totalTickets: 40 },
  ];
  ev = createTicketedEvent(t.deps.db, { name: 'Sunburn Arena Mumbai', types, platformFeeRate: 10 });
  shop = createTicketedEvent(t.deps.db, { name: 'NH7 Weekender', types, platformFeeRate: 5 });
  bare = createTicketedEvent(t.deps.db, { name: 'Open Mic Pune', noTickets: true });
  door = createTicketedEvent(t.deps.db, {
    name: 'Prithvi Theatre Nights',
    city: 'Mumbai',
    types: [{ name: 'Stalls', pricePaise: 75_000, totalTickets: 7 }],
  });
  for (const id of [ev.eventId, shop.eventId, bare.eventId, door.eventId]) {
    t.deps.db.update(events).set({ ownerId }).where(eq(events.id, id)).run();
  }
  goldBooking = await buyTickets(t, ev, 2);
  await buyTickets(t, { ...ev, ticketTypeIds: [ev.ticketTypeIds[1]!] }, 4);
  const as = { cookie: owner.cookie };
  const made = await Promise.all([
    callProcedure(t, 'mutation', 'console.createDiscountCode', { eventId: shop.eventId, code: CODE }, as),
    callProcedure(
      t,
      'mutation',
      'console.createQuota',
      { eventId: shop.eventId, quota: { ...quotaOf(shop, 25), name: 'Ground' } },
      as,
    ),
    callProcedure(t, 'mutation', 'console.createAddOn', { eventId: shop.eventId, addOn: T_SHIRT }, as),
  ]);
  for (const res of made) expect(res.status, JSON.stringify(res.body)).toBe(200);
  if (serverUrl) {
    target = await moveToScratchPostgres(t, serverUrl, 'jalsa_box_office');
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

const CODE = {
  code: 'DIWALI10',
  kind: 'percent',
  percentOff: 10,
  amountOffPaise: null,
  ticketTypeIds: null,
  validFrom: null,
  validUntil: null,
  maxUses: null,
  maxUsesPerBuyer: null,
};

const T_SHIRT = {
  name: 'Festival T-shirt',
  description: 'Cotton, printed line-up',
  pricePaise: 59_900,
  taxRatePercent: 5,
  hsnSac: '6109',
  maxPerOrder: 4,
  ticketTypeIds: null,
  isActive: true,
  variants: [
    { name: 'S', stock: 5 },
    { name: 'M', stock: 3 },
  ],
};

function quotaOf(event: TicketedEvent, capacity: number) {
  return { name: 'Silver and Gold', capacity, slotIds: [event.slotId], ticketTypeIds: event.ticketTypeIds };
}

/** Each engine's database as services see it; on PostgreSQL, `pool` picks one of two app servers. */
const engines: [string, (pool?: number) => Db][] = [['SQLite', () => t.deps.db]];
if (serverUrl) engines.push(['PostgreSQL', (pool = 0) => pools[pool % pools.length] as unknown as Db]);

const now = () => t.clock.now();

/** The app's dependencies on this engine's database. */
const depsOn = (db: Db): AppDeps => ({ ...t.deps, db });

/** A buyer's hold, as Proceed takes it. */
function hold(db: Db, event: TicketedEvent, typeId: string, quantity: number, buyer: string) {
  return runnerFor(db).write((tx) =>
    reserveSteps(
      tx,
      {
        userId: buyer,
        eventId: event.eventId,
        eventDateId: event.dateId,
        slotId: event.slotId,
        lines: [{ ticketTypeId: typeId, quantity }],
        details: DETAILS,
        userCity: null,
        platformFeeRate: 10,
      },
      now(),
    ),
  );
}

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** What each engine answered to the buyer's reads, to compare across engines. */
const buyerSees = new Map<string, unknown>();

describe.each(engines)('box office, written once, on %s', (name, dbOf) => {
  it('a shared capacity is created, read as sold, held and left, resized, refused below what is taken, and removed', async () => {
    const db = dbOf();
    const { id } = await createQuota(db, ev.eventId, quotaOf(ev, 30), now());
    await hold(db, ev, ev.ticketTypeIds[1]!, 3, buyerIds[0]!);
    const [quota] = await listQuotas(db, ev.eventId);
    expect(quota).toMatchObject({ id, capacity: 30, sold: 6, held: 3, left: 21 });
    expect(quota!.ticketTypes.map((type) => type.id)).toEqual(ev.ticketTypeIds);

    await updateQuota(db, ev.eventId, id, { ...quotaOf(ev, 12), name: 'Arena floor' }, now());
    expect((await listQuotas(db, ev.eventId))[0]).toMatchObject({
      name: 'Arena floor',
      capacity: 12,
      sold: 6,
      held: 3,
      left: 3,
    });
    const below = await refusal(updateQuota(db, ev.eventId, id, quotaOf(ev, 8), now()));
    expect(below.code).toBe('BAD_REQUEST');

    await removeQuota(db, ev.eventId, id);
    expect(await listQuotas(db, ev.eventId)).toEqual([]);
    expect((await refusal(removeQuota(db, ev.eventId, id))).code).toBe('NOT_FOUND');
  });

  it('an add-on with sizes is saved and its stock read; a size cut below what is held is refused', async () => {
    const db = dbOf();
    const { id } = await createAddOn(db, ev.eventId, T_SHIRT, now());
    const [created] = await listAddOns(db, ev.eventId);
    expect(created!.variants.map((v) => [v.name, v.stock, v.left, v.held, v.sold])).toEqual([
      ['S', 5, 5, 0, 0],
      ['M', 3, 3, 0, 0],
    ]);
    const [small, medium] = created!.variants;
    await updateAddOn(
      db,
      ev.eventId,
      id,
      {
        ...T_SHIRT,
        variants: [
          { id: small!.id, name: 'S', stock: 2 },
          { id: medium!.id, name: 'M', stock: 6 },
          { name: 'L', stock: 4 },
        ],
      },
      now(),
    );
    const [updated] = await listAddOns(db, ev.eventId);
    expect(updated!.variants.map((v) => [v.name, v.stock, v.left])).toEqual([
      ['S', 2, 2],
      ['M', 6, 6],
      ['L', 4, 4],
    ]);
    const unknown = await refusal(
      updateAddOn(db, ev.eventId, id, { ...T_SHIRT, ticketTypeIds: [shop.ticketTypeIds[0]!] }, now()),
    );
    expect(unknown.code).toBe('BAD_REQUEST');
  });

  it("the organiser refunds part of a booking, and the event's part-refund money counts it", async () => {
    const db = dbOf();
    const deps = depsOn(db);
    const part = await refundBookingPart(
      deps,
      ev.eventId,
      {
        bookingId: goldBooking.bookingId,
        allButFee: false,
        amountPaise: 30_000,
        reason: 'Obstructed view',
        cancelTickets: [],
      },
      ownerId,
    );
    expect(part.amountPaise).toBe(30_000);
    const money = await runStatements(db, (db) => partRefundMoneySteps(db, [ev.eventId]));
    expect(money.get(ev.eventId)).toEqual({
      refundedPaise: 30_000,
      pendingPaise: expect.any(Number),
      feePaise: 0,
    });
    const stored = await runStatements(db, function* (db) {
      const { refundParts } = tablesOf(db);
      return yield* row(
        db
          .select({ status: refundParts.status, amountPaise: refundParts.amountPaise })
          .from(refundParts)
          .where(eq(refundParts.id, part.refundPartId)),
      );
    });
    // Issued to the gateway after commit, on this engine.
    expect(stored).toEqual({ status: 'processed', amountPaise: 30_000 });
    // Its credit note, as the booking's invoices and the note's download read it.
    const [note] = await runStatements(db, function* (db) {
      const { partialCreditNotes } = tablesOf(db);
      return yield* rows(
        db
          .select({ id: partialCreditNotes.id, invoiceId: partialCreditNotes.invoiceId })
          .from(partialCreditNotes)
          .where(eq(partialCreditNotes.refundPartId, part.refundPartId)),
      );
    });
    expect(note).toBeDefined();
    const download = await runStatements(db, (db) => partialCreditNoteForDownloadSteps(db, note!.id));
    expect(download?.invoice.id).toBe(note!.invoiceId);
    const listed = await runStatements(db, (db) => withPartCreditNotesSteps(db, [{ id: note!.invoiceId }]));
    expect(listed[0]!.partCreditNotes.map((n) => [n.id, n.totalPaise])).toEqual([
      [note!.id, download!.creditNote.totalPaise],
    ]);
    const page: string[] = [];
    for await (const notes of partialCreditNotePages(
      db,
      download!.creditNote.issuer,
      '2000-01-01',
      '2100-01-01',
      10,
    ))
      page.push(...notes.map((p) => p.note.id));
    expect(page).toContain(note!.id);
    const other = await refusal(
      refundBookingPart(
        deps,
        shop.eventId,
        {
          bookingId: goldBooking.bookingId,
          allButFee: false,
          amountPaise: 100,
          reason: 'Wrong event',
          cancelTickets: [],
        },
        ownerId,
      ),
    );
    expect(other.code).toBe('NOT_FOUND');
  });

  it("the buyer's ticket options and a code's quote are the same on both engines", async () => {
    const db = dbOf();
    const deps = depsOn(db);
    const options = await ticketOptions(deps, shop.eventId);
    expect(options.addOns.map((a) => a.variants.map((v) => [v.name, v.left]))).toEqual([
      [
        ['S', 5],
        ['M', 3],
      ],
    ]);
    // The quota of 25 over both types limits each (Silver has 40 of its own).
    expect(options.dates[0]!.slots[0]!.ticketTypes.map((type) => type.availableTickets)).toEqual([20, 25]);
    const quote = await quoteDiscount(deps, buyerIds[1]!, {
      eventId: shop.eventId,
      selectedSlot: shop.slotId,
      selectedTickets: [{ ticketTypeId: shop.ticketTypeIds[1]!, quantity: 2 }],
      discountCode: 'diwali10',
    });
    expect(quote).toMatchObject({ code: 'DIWALI10', discountPaise: 10_000 });
    const fallback = await ticketOptions(deps, bare.eventId);
    expect(fallback.dates[0]!.slots[0]!.ticketTypes.map((type) => type.name)).toEqual([
      'Student Pass',
      'Lounge Pass',
      'Gold Circle',
    ]);
    const seen = { options, quote, fallback };
    if (name === 'SQLite') buyerSees.set(name, seen);
    else if (buyerSees.has('SQLite')) expect(seen).toEqual(buyerSees.get('SQLite'));
  });

  it('holds racing a quota being resized never leave it out of step with what was sold and held', async () => {
    const db = dbOf();
    const { id } = await createQuota(db, ev.eventId, quotaOf(ev, 40), now());
    const before = (await listQuotas(db, ev.eventId))[0]!;
    const silver = ev.ticketTypeIds[1]!;
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i += 1) {
      work.push(hold(dbOf(i), ev, silver, 1, buyerIds[4 + i]!));
      if (i % 3 === 0) {
        work.push(updateQuota(dbOf(i + 1), ev.eventId, id, { ...quotaOf(ev, 40 - i), name: 'Arena' }, now()));
      }
    }
    const results = await Promise.allSettled(work);
    for (const result of results)
      expect(result.status, String((result as { reason?: unknown }).reason)).toBe('fulfilled');
    const after = (await listQuotas(db, ev.eventId))[0]!;
    expect(after.held).toBe(before.held + 12);
    expect(after.sold).toBe(before.sold);
    expect(after.left + after.held + after.sold).toBe(after.capacity);
    await removeQuota(db, ev.eventId, id);
  });

  it('a comp and a door sale take their seats; the door sale has its invoice, the comp none', async () => {
    const db = dbOf();
    const deps = depsOn(db);
    const sale = (kind: 'comp' | 'door', email: string) =>
      recordBoxOfficeSale(deps, door.eventId, ownerId, {
        kind,
        input: {
          eventId: door.eventId,
          slotId: door.slotId,
          lines: [{ ticketTypeId: door.ticketTypeIds[0]!, quantity: 1 }],
          name: 'Ravi Kulkarni',
          email,
          phone: '9820012345',
          ...(kind === 'comp' ? { reason: "Artist's guest" } : { method: 'cash' as const }),
        },
      });
    const comp = await sale('comp', 'ravi.walkin@example.com');
    const cash = await sale('door', 'asha.walkin@example.com');
    expect(comp.totalPaise).toBe(0);
    expect(cash.totalPaise).toBeGreaterThanOrEqual(75_000);
    const seen = await runStatements(db, function* (db) {
      const { boxOfficeSales, invoices, ticketTypes } = tablesOf(db);
      const type = yield* row(
        db
          .select({ available: ticketTypes.availableTickets })
          .from(ticketTypes)
          .where(eq(ticketTypes.id, door.ticketTypeIds[0]!)),
      );
      const invoiced = yield* rows(db.select({ bookingId: invoices.bookingId }).from(invoices));
      const sales = yield* rows(
        db.select({ bookingId: boxOfficeSales.bookingId, kind: boxOfficeSales.kind }).from(boxOfficeSales),
      );
      return { available: type!.available, invoiced: invoiced.map((i) => i.bookingId), sales };
    });
    expect(seen.available).toBe(5);
    expect(seen.invoiced).toContain(cash.bookingId);
    expect(seen.invoiced).not.toContain(comp.bookingId);
    expect(seen.sales).toEqual(
      expect.arrayContaining([
        { bookingId: comp.bookingId, kind: 'comp' },
        { bookingId: cash.bookingId, kind: 'door' },
      ]),
    );
  });

  it('20 door sales racing for the last 5 seats: exactly 5 are sold', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        recordBoxOfficeSale(depsOn(dbOf(i)), door.eventId, ownerId, {
          kind: 'door',
          input: {
            eventId: door.eventId,
            slotId: door.slotId,
            lines: [{ ticketTypeId: door.ticketTypeIds[0]!, quantity: 1 }],
            name: `Walk-in ${i}`,
            email: `walkin${i}@example.com`,
            phone: '9820012345',
            method: 'upi',
          },
        }),
      ),
    );
    const sold = results.filter((r) => r.status === 'fulfilled');
    expect(sold).toHaveLength(5);
    for (const r of results) {
      if (r.status === 'rejected') expect(String(r.reason)).toMatch(/Sold Out|Insufficient/);
    }
    const left = await runStatements(dbOf(), function* (db) {
      const { ticketTypes } = tablesOf(db);
      return yield* row(
        db
          .select({ available: ticketTypes.availableTickets })
          .from(ticketTypes)
          .where(eq(ticketTypes.id, door.ticketTypeIds[0]!)),
      );
    });
    expect(left!.available).toBe(0);
  });
});
