import { randomUUID } from 'node:crypto';
import { eq, or } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db, DbOrTx } from '../../src-server/db/client.ts';
import { readSnapshot, runStatements } from '../../src-server/db/engine/reads.ts';
import { rows, runSync, type Steps } from '../../src-server/db/engine/steps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { quotas, quotaTicketTypes } from '../../src-server/db/schema/quotas.ts';
import { fixtureShow, TEST_CLOCK_START } from './fixture-dates.ts';
import { type EventDocument, insertEvent, insertEventOn } from './insert-event.ts';

export interface TicketTypeSpec {
  name: string;
  pricePaise: number;
  totalTickets: number;
  availableTickets?: number;
  isLive?: boolean;
  personAllowedPerTicket?: number;
}

export interface TicketedEvent {
  eventId: string;
  eventName: string;
  dateId: string;
  slotId: string;
  slotStart: string;
  slotEnd: string;
  ticketTypeIds: string[];
}

/**
 * An event with one date, one slot and the given ticket types (default: Gold Circle ₹999.99 × 50). The
 * slot is the fixture show 14 days after `now`: pass the real time when the server under test is a
 * process reading the real clock; the default suits in-process apps on the test clock (5 Dec 2026).
 */
export function createTicketedEvent(db: Db, options: TicketedEventOptions = {}): TicketedEvent {
  const { doc, createdAt, event } = ticketedEventFixture(options);
  insertEvent(db, doc, createdAt);
  return event;
}

/** `createTicketedEvent` on either engine (ADR 0045), for a file run on both (`testEngine()`). */
export async function createTicketedEventOn(
  db: Db,
  options: TicketedEventOptions = {},
): Promise<TicketedEvent> {
  const { doc, createdAt, event } = ticketedEventFixture(options);
  await insertEventOn(db, doc, createdAt);
  return event;
}

export interface TicketedEventOptions {
  types?: TicketTypeSpec[];
  platformFeeRate?: number | null;
  name?: string;
  city?: string;
  location?: string;
  noTickets?: boolean;
  now?: Date;
}

export function ticketedEventFixture(options: TicketedEventOptions): {
  doc: EventDocument;
  createdAt: string;
  event: TicketedEvent;
} {
  const id = `evt-${randomUUID().slice(0, 8)}`;
  const types = options.types ?? [{ name: 'Gold Circle', pricePaise: 99_999, totalTickets: 50 }];
  const now = options.now ?? TEST_CLOCK_START;
  const { start: slotStart, end: slotEnd } = fixtureShow(now);
  const ticketTypeIds = types.map((_, i) => `${id}-type-${i}`);
  const eventName = options.name ?? `Sunburn Arena ${id}`;
  const doc: EventDocument = {
    id,
    name: eventName,
    description: 'A night of music.',
    category: 'concerts',
    city: options.city ?? 'Mumbai',
    imagesUrls: [],
    posterUrl: null,
    startTime: slotStart,
    endTime: slotEnd,
    eventLocationText: options.location ?? 'NSCI Dome, Worli, Mumbai',
    googleMapsEmbedLink: null,
    ageRestrictions: 18,
    artistLineup: null,
    termsAndConditions: [],
    platformFeeRate: options.platformFeeRate ?? null,
    tickets: options.noTickets
      ? []
      : [
          {
            id: `${id}-date`,
            dateOfEvent: slotStart,
            isLive: true,
            slots: [
              {
                id: `${id}-slot`,
                startTime: slotStart,
                endTime: slotEnd,
                tickets: types.map((t, i) => ({
                  id: ticketTypeIds[i]!,
                  name: t.name,
                  pricePaise: t.pricePaise,
                  personAllowedPerTicket: t.personAllowedPerTicket ?? 1,
                  description: `${t.name} entry`,
                  isRefundable: true,
                  totalTickets: t.totalTickets,
                  availableTickets: t.availableTickets ?? t.totalTickets,
                  isLive: t.isLive ?? true,
                  benefits: ['Entry'],
                })),
              },
            ],
          },
        ],
  };
  return {
    doc,
    createdAt: new Date(now.getTime() - 20 * 86_400_000).toISOString(),
    event: {
      eventId: id,
      eventName,
      dateId: `${id}-date`,
      slotId: `${id}-slot`,
      slotStart,
      slotEnd,
      ticketTypeIds,
    },
  };
}

/**
 * A second show of the event on its date, 5 Dec 2026 18:00–20:00 UTC, with one type of its own ("Late
 * Show", ₹300): ids `<event>-late` and `<event>-late-type`.
 */
export async function addLateShowOn(
  db: Db,
  ev: TicketedEvent,
  totalTickets: number,
): Promise<{ slotId: string; typeId: string }> {
  const { slots, ticketTypes } = tablesOf(db);
  const slotId = `${ev.eventId}-late`;
  const typeId = `${ev.eventId}-late-type`;
  await db.insert(slots).values({
    id: slotId,
    eventDateId: ev.dateId,
    startTime: '2026-12-05T18:00:00.000Z',
    endTime: '2026-12-05T20:00:00.000Z',
  });
  await db.insert(ticketTypes).values({
    id: typeId,
    slotId,
    name: 'Late Show',
    pricePaise: 30_000,
    totalTickets,
    availableTickets: totalTickets,
  });
  return { slotId, typeId };
}

export interface InventoryCount {
  ticketTypeId: string;
  total: number;
  available: number;
  held: number;
  sold: number;
}

/** Per ticket type: available, seats in active holds, and seats sold according to the confirmed bookings. */
export function inventoryCounts(db: Db): InventoryCount[] {
  return runSync(inventoryCountsSteps(db));
}

/** `inventoryCounts` as steps, read through either engine's tables (ADR 0045). */
function* inventoryCountsSteps(db: DbOrTx): Steps<InventoryCount[]> {
  const { ticketTypes, holdItems, holds, bookings, refundParts } = tablesOf(db);
  const counts = new Map<string, InventoryCount>();
  for (const t of yield* rows(db.select().from(ticketTypes))) {
    counts.set(t.id, {
      ticketTypeId: t.id,
      total: t.totalTickets,
      available: t.availableTickets,
      held: 0,
      sold: 0,
    });
  }
  const active = yield* rows(
    db
      .select({ ticketTypeId: holdItems.ticketTypeId, quantity: holdItems.quantity })
      .from(holdItems)
      .innerJoin(holds, eq(holds.id, holdItems.holdId))
      .where(eq(holds.status, 'active')),
  );
  for (const item of active) counts.get(item.ticketTypeId)!.held += item.quantity;
  // A cancelled booking's seats went back to available: only confirmed bookings hold tickets, and
  // cancelled ones people had walked in with (their seats are never sold again, issue 35).
  const confirmed = yield* rows(
    db
      .select({ lines: bookings.ticketTypes })
      .from(bookings)
      .where(or(eq(bookings.status, 'confirmed'), eq(bookings.seatsKept, true))),
  );
  for (const booking of confirmed) {
    for (const line of booking.lines) {
      const c = counts.get(line.id);
      if (c) c.sold += line.quantity;
    }
  }
  // Tickets a part refund cancelled after people walked in with the booking stay sold (ADR 0043).
  for (const part of yield* rows(db.select({ lines: refundParts.cancelledTickets }).from(refundParts))) {
    for (const line of part.lines) {
      const c = counts.get(line.id);
      if (c) c.sold += line.quantity - line.seatsReturned;
    }
  }
  return [...counts.values()];
}

/** `countOf` on either engine. */
export async function countOfOn(db: Db, ticketTypeId: string): Promise<InventoryCount> {
  const c = (await runStatements(db, inventoryCountsSteps)).find((x) => x.ticketTypeId === ticketTypeId);
  if (!c) throw new Error(`no ticket type ${ticketTypeId}`);
  return c;
}

/** `expectInventoryInvariant` on either engine, for ticket types and quotas alike. */
export async function expectInventoryInvariantOn(db: Db): Promise<void> {
  // One snapshot: on PostgreSQL a job still settling (a cancelled slot's bookings) may commit between
  // separate reads, and counts taken either side of its commit would not add up though it is atomic.
  const { counts, members, quotaRows } = await readSnapshot(db, function* (db) {
    const { quotas, quotaTicketTypes } = tablesOf(db);
    return {
      counts: yield* inventoryCountsSteps(db),
      members: yield* rows(db.select().from(quotaTicketTypes)),
      quotaRows: yield* rows(db.select().from(quotas)),
    };
  });
  for (const c of counts) {
    expect(c.available, `available of ${c.ticketTypeId}`).toBeGreaterThanOrEqual(0);
    expect(c.available + c.held + c.sold, `available + held + sold of ${c.ticketTypeId}`).toBe(c.total);
  }
  for (const q of quotaRows) {
    const types = counts.filter((c) =>
      members.some((m) => m.quotaId === q.id && m.ticketTypeId === c.ticketTypeId),
    );
    const held = types.reduce((sum, c) => sum + c.held, 0);
    const sold = types.reduce((sum, c) => sum + c.sold, 0);
    expect(q.available, `available of quota ${q.id}`).toBeGreaterThanOrEqual(0);
    expect(q.available + held + sold, `available + held + sold of quota ${q.id}`).toBe(q.capacity);
  }
}

export interface QuotaCount {
  quotaId: string;
  capacity: number;
  available: number;
  held: number;
  sold: number;
  ticketTypeIds: string[];
}

/**
 * Per shared capacity (quota, ADR 0039): its available, and the held and sold seats of its ticket
 * types, counted from the holds and bookings as `inventoryCounts` counts them.
 */
export function quotaCounts(db: Db): QuotaCount[] {
  const perType = new Map(inventoryCounts(db).map((c) => [c.ticketTypeId, c]));
  const members = db.select().from(quotaTicketTypes).all();
  return db
    .select()
    .from(quotas)
    .all()
    .map((q) => {
      const ticketTypeIds = members.filter((m) => m.quotaId === q.id).map((m) => m.ticketTypeId);
      const types = ticketTypeIds.map((id) => perType.get(id)!);
      return {
        quotaId: q.id,
        capacity: q.capacity,
        available: q.available,
        held: types.reduce((sum, c) => sum + c.held, 0),
        sold: types.reduce((sum, c) => sum + c.sold, 0),
        ticketTypeIds,
      };
    });
}

/**
 * The inventory invariant: for every ticket type, available + active holds + sold = total, and for every
 * quota, available + active holds + sold of its types = capacity; none negative. `only` limits the check
 * to some ticket types and the quotas over them (the e2e database also holds demo data).
 */
export function expectInventoryInvariant(db: Db, only?: string[]) {
  for (const c of inventoryCounts(db)) {
    if (only && !only.includes(c.ticketTypeId)) continue;
    expect(c.available, `available of ${c.ticketTypeId}`).toBeGreaterThanOrEqual(0);
    expect(c.available + c.held + c.sold, `available + held + sold of ${c.ticketTypeId}`).toBe(c.total);
  }
  for (const q of quotaCounts(db)) {
    if (only && !q.ticketTypeIds.some((id) => only.includes(id))) continue;
    expect(q.available, `available of quota ${q.quotaId}`).toBeGreaterThanOrEqual(0);
    expect(q.available + q.held + q.sold, `available + held + sold of quota ${q.quotaId}`).toBe(q.capacity);
  }
}

export function quotaCountOf(db: Db, quotaId: string): QuotaCount {
  const c = quotaCounts(db).find((x) => x.quotaId === quotaId);
  if (!c) throw new Error(`no quota ${quotaId}`);
  return c;
}

export function countOf(db: Db, ticketTypeId: string): InventoryCount {
  const c = inventoryCounts(db).find((x) => x.ticketTypeId === ticketTypeId);
  if (!c) throw new Error(`no ticket type ${ticketTypeId}`);
  return c;
}

/** Valid checkout details for tests. */
export const DETAILS = {
  name: 'Asha Verma',
  email: 'asha@example.com',
  phone: '+91 98765-43210',
  state: 'Maharashtra',
} as const;
