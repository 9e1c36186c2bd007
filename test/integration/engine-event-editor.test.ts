import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR_MESSAGES } from '../../shared/event-editor-schemas.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { runnerFor } from '../../src-server/db/engine/runner.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { DomainError } from '../../src-server/errors.ts';
import { addEventDate } from '../../src-server/services/event-editor/add-event-date.ts';
import { addSlot } from '../../src-server/services/event-editor/add-slot.ts';
import { addTicketType } from '../../src-server/services/event-editor/add-ticket-type.ts';
import { copyTicketTypesToAllSlots } from '../../src-server/services/event-editor/copy-ticket-types-to-all-slots.ts';
import { createEvent } from '../../src-server/services/event-editor/create-event.ts';
import { getEditableEvent } from '../../src-server/services/event-editor/get-editable-event.ts';
import { publishEvent } from '../../src-server/services/event-editor/publish-event.ts';
import { unpublishEvent } from '../../src-server/services/event-editor/unpublish-event.ts';
import { updateTicketType } from '../../src-server/services/event-editor/update-ticket-type.ts';
import { reserveSteps } from '../../src-server/services/inventory/holds.ts';
import { createAccount } from '../helpers/console-world.ts';
import { DETAILS as BUYER } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { createSignedInUser } from '../helpers/users.ts';

// Issue 38: the organiser's event editor (services/event-editor/) written once, run on both engines by
// the same calls: an installation made by the app on SQLite (the organiser, the buyers) and, for
// PostgreSQL, moved there; each engine then builds its own event through the services. On PostgreSQL
// two organisers' capacity edits race each other and buyers' holds on two pools, as two app servers
// would, and never leave a type with fewer seats than it has sold and held.

const serverUrl = testPostgresUrl('engine-event-editor.test.ts');
let t: TestApp;
let organiserId: string;
let buyerIds: string[];
let target: ScratchPostgres | undefined;
let pools: PgDb[] = [];

// The test clock reads 2026-11-21T06:30Z (12:00 in India).
const EVENT = {
  name: 'Monsoon Ragas',
  category: 'concerts' as const,
  city: 'Pune',
  eventLocationText: 'Ganesh Kala Krida Manch, Swargate',
  googleMapsEmbedLink: '',
  description: 'An evening of Hindustani classical music.',
  ageRestrictions: 12,
  language: 'Hindi',
  termsAndConditions: ['Carry a photo ID.'],
  artists: [{ name: 'Kaushiki Chakraborty' }],
  platformFeeRate: 4,
  posterUrl: '/images/events/sufi-nights-delhi-poster.webp',
};
const TICKET = {
  name: 'Gold',
  priceRupees: 1499,
  totalTickets: 100,
  maxPerOrder: 10,
  personAllowedPerTicket: 1,
  description: 'Front rows',
  benefits: ['Reserved seating'],
  isRefundable: true,
  onSale: true,
  saleOpensAt: null,
  saleClosesAt: null,
};

beforeAll(async () => {
  t = createTestApp();
  organiserId = createAccount(t, 'organiser').userId;
  buyerIds = Array.from({ length: 12 }, () => createSignedInUser(t).userId);
  if (serverUrl) {
    target = await moveToScratchPostgres(t, serverUrl, 'jalsa_event_editor');
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

const now = () => t.clock.now();

/** A buyer's hold of `quantity` seats of one type, as Proceed takes it. */
async function hold(
  db: Db,
  event: { eventId: string; dateId: string; slotId: string },
  typeId: string,
  quantity: number,
  buyer: string,
) {
  return runnerFor(db).write((tx) =>
    reserveSteps(
      tx,
      {
        userId: buyer,
        eventId: event.eventId,
        eventDateId: event.dateId,
        slotId: event.slotId,
        lines: [{ ticketTypeId: typeId, quantity }],
        details: BUYER,
        userCity: null,
        platformFeeRate: 4,
      },
      now(),
    ),
  );
}

/** A type's counts: seats on sale, in active holds, and its capacity. */
async function countsOf(db: Db, typeId: string) {
  const { ticketTypes, holdItems, holds } = tablesOf(db);
  const [type] = await db
    .select({ total: ticketTypes.totalTickets, available: ticketTypes.availableTickets })
    .from(ticketTypes)
    .where(eq(ticketTypes.id, typeId));
  const [held] = await db
    .select({ n: sql<number>`coalesce(sum(${holdItems.quantity}), 0)` })
    .from(holdItems)
    .innerJoin(holds, eq(holds.id, holdItems.holdId))
    .where(and(eq(holdItems.ticketTypeId, typeId), eq(holds.status, 'active')));
  return { ...type!, held: Number(held!.n) };
}

async function versionOf(db: Db, eventId: string): Promise<number> {
  const { events } = tablesOf(db);
  const [event] = await db.select({ version: events.version }).from(events).where(eq(events.id, eventId));
  return event!.version;
}

describe.each(engines)('the event editor, written once, on %s', (name, open) => {
  it('creates an event, a date, slots and ticket types, copies them to another slot with its own quota, edits a capacity (never below what is held), publishes and unpublishes', async () => {
    const db = open();
    const { eventId, version: v1 } = await createEvent(db, t.clock, organiserId, EVENT);
    const { dateId, version: v2 } = await addEventDate(db, t.clock, eventId, v1, '2026-12-05');
    const a = await addSlot(db, t.clock, eventId, v2, { dateId, startTime: '18:00', endTime: '21:00' });
    const b = await addSlot(db, t.clock, eventId, a.version, {
      dateId,
      startTime: '21:30',
      endTime: '23:30',
    });
    const gold = await addTicketType(db, eventId, b.version, a.slotId, TICKET);
    const silver = await addTicketType(db, eventId, gold.version, a.slotId, {
      ...TICKET,
      name: 'Silver',
      priceRupees: 499,
      totalTickets: 50,
    });
    // One shared capacity over both of slot A's types (the quotas service is not converted: rows as it writes them).
    const { quotas, quotaTicketTypes, ticketTypes, events } = tablesOf(db);
    const stamp = now().toISOString();
    await db.insert(quotas).values({
      id: `qt-${name}`,
      eventId,
      name: 'Hall',
      capacity: 120,
      available: 120,
      createdAt: stamp,
      updatedAt: stamp,
    });
    await db.insert(quotaTicketTypes).values([
      { quotaId: `qt-${name}`, ticketTypeId: gold.ticketTypeId },
      { quotaId: `qt-${name}`, ticketTypeId: silver.ticketTypeId },
    ]);

    const copied = await copyTicketTypesToAllSlots(db, eventId, silver.version, a.slotId, now());
    expect(copied.created).toBe(2);
    const copies = await db
      .select({
        id: ticketTypes.id,
        name: ticketTypes.name,
        total: ticketTypes.totalTickets,
        available: ticketTypes.availableTickets,
      })
      .from(ticketTypes)
      .where(eq(ticketTypes.slotId, b.slotId));
    expect(copies.map((c) => [c.name, c.total, c.available]).sort()).toEqual([
      ['Gold', 100, 100],
      ['Silver', 50, 50],
    ]);
    const copiedQuotas = await db
      .select({ quotaId: quotaTicketTypes.quotaId, capacity: quotas.capacity, available: quotas.available })
      .from(quotaTicketTypes)
      .innerJoin(quotas, eq(quotas.id, quotaTicketTypes.quotaId))
      .where(
        inArray(
          quotaTicketTypes.ticketTypeId,
          copies.map((c) => c.id),
        ),
      );
    // Slot B's own full house, not a share of slot A's.
    expect(copiedQuotas).toHaveLength(2);
    expect(new Set(copiedQuotas.map((q) => q.quotaId)).size).toBe(1);
    expect(copiedQuotas[0]!.quotaId).not.toBe(`qt-${name}`);
    expect(copiedQuotas[0]).toMatchObject({ capacity: 120, available: 120 });

    // 30 Gold seats held: the capacity may not drop below them, and may be raised.
    await hold(db, { eventId, dateId, slotId: a.slotId }, gold.ticketTypeId, 10, buyerIds[0]!);
    await hold(db, { eventId, dateId, slotId: a.slotId }, gold.ticketTypeId, 10, buyerIds[1]!);
    await hold(db, { eventId, dateId, slotId: a.slotId }, gold.ticketTypeId, 10, buyerIds[2]!);
    const refused = updateTicketType(db, eventId, copied.version, gold.ticketTypeId, {
      ...TICKET,
      totalTickets: 20,
    });
    await expect(refused).rejects.toThrow(EDITOR_MESSAGES.capacityBelowSold(0, 30));
    expect(await countsOf(db, gold.ticketTypeId)).toEqual({ total: 100, available: 70, held: 30 });
    const edited = await updateTicketType(db, eventId, copied.version, gold.ticketTypeId, {
      ...TICKET,
      totalTickets: 80,
    });
    expect(await countsOf(db, gold.ticketTypeId)).toEqual({ total: 80, available: 50, held: 30 });

    const editable = await getEditableEvent(db, eventId, now());
    const goldShown = editable.dates[0]!.slots.flatMap((s) => s.tickets).find(
      (x) => x.id === gold.ticketTypeId,
    )!;
    expect(goldShown).toMatchObject({ totalTickets: 80, held: 30, sold: 0 });
    expect(editable.version).toBe(edited.version);

    const published = await publishEvent(db, t.clock, eventId, edited.version, 'owner');
    expect(published).toEqual({ published: true, version: edited.version + 1 });
    const publishedVersion = edited.version + 1;
    const [listed] = await db
      .select({ status: events.status, lowest: events.lowestPricePaise, lastEndsAt: events.lastEndsAt })
      .from(events)
      .where(eq(events.id, eventId));
    // The catalogue's columns were kept by the edit's own refresh: "from ₹499", ends with slot B.
    expect(listed).toEqual({ status: 'published', lowest: 49_900, lastEndsAt: '2026-12-05T18:00:00.000Z' });
    await expect(publishEvent(db, t.clock, eventId, publishedVersion, 'owner')).rejects.toThrow(
      EDITOR_MESSAGES.notDraft,
    );
    await unpublishEvent(db, eventId, publishedVersion);
    expect(await versionOf(db, eventId)).toBe(publishedVersion + 1);
  });

  it.runIf(name === 'PostgreSQL')(
    "two organisers' racing capacity edits, with buyers holding seats meanwhile: never fewer seats than held, available + held = total",
    async () => {
      const db = open();
      const { eventId, version: v1 } = await createEvent(db, t.clock, organiserId, {
        ...EVENT,
        name: 'Race',
      });
      const { dateId, version: v2 } = await addEventDate(db, t.clock, eventId, v1, '2026-12-06');
      const slot = await addSlot(db, t.clock, eventId, v2, { dateId, startTime: '18:00', endTime: '21:00' });
      const type = await addTicketType(db, eventId, slot.version, slot.slotId, {
        ...TICKET,
        totalTickets: 60,
      });
      const where = { eventId, dateId, slotId: slot.slotId };

      const refusals: string[] = [];
      const edits = [0, 1].map(async (organiser) => {
        // Each organiser lowers and raises the capacity, each save based on the version just read.
        for (const totalTickets of [45, 70, 40, 65, 35, 60, 30]) {
          try {
            const pool = open(organiser);
            await updateTicketType(pool, eventId, await versionOf(pool, eventId), type.ticketTypeId, {
              ...TICKET,
              totalTickets: totalTickets + organiser,
            });
          } catch (error) {
            // A refusal is the editor's own (stale version, below what is held), never the database's.
            expect(error).toBeInstanceOf(DomainError);
            refusals.push((error as Error).message);
          }
        }
      });
      const holds = buyerIds.map(async (buyer, i) => {
        try {
          await hold(open(i), where, type.ticketTypeId, 4, buyer);
        } catch {
          // Sold out for now: the capacity was lowered first.
        }
      });
      await Promise.all([...edits, ...holds]);

      const counts = await countsOf(db, type.ticketTypeId);
      expect(counts.available).toBeGreaterThanOrEqual(0);
      expect(counts.available + counts.held).toBe(counts.total);
      expect(counts.held).toBeGreaterThan(0);
      expect(
        refusals.every((m) => m === EDITOR_MESSAGES.staleVersion || m.startsWith('Capacity cannot')),
      ).toBe(true);
    },
    60_000,
  );
});
