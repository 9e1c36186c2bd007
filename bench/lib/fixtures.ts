import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Db } from '../../src-server/db/client.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import { createDiscountCode } from '../../src-server/services/discounts/create-discount-code.ts';
import { createQuota } from '../../src-server/services/quotas/create-quota.ts';
import { insertEvent } from '../../test/helpers/insert-event.ts';

export interface BenchEvent {
  eventId: string;
  dateId: string;
  slotId: string;
  ticketTypes: { id: string; name: string; total: number }[];
}

/**
 * Signed-in buyers, written straight into the server's database: a user row and a real session made by
 * the app's own `createSession` (the cookie is the token the server will validate on every request).
 * Sign-in itself (argon2, deliberately slow) is not what the benchmarks measure.
 */
export function createBuyers(db: Db, count: number, label: string): string[] {
  const now = new Date();
  return db.transaction((tx) => {
    const cookies: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const id = randomUUID();
      tx.insert(users)
        .values({
          id,
          email: `${label}-${i}-${id.slice(0, 8)}@bench.local`,
          name: `Bench Buyer ${i}`,
          isEmailVerified: true,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        })
        .run();
      cookies.push(`${SESSION_COOKIE}=${createSession(tx, id, now).token}`);
    }
    return cookies;
  });
}

/** An on-sale event a month ahead with one date, one slot and the given ticket types. */
export function createOnSaleEvent(
  db: Db,
  name: string,
  types: { name: string; seats: number }[],
): BenchEvent {
  const id = `bench-${randomUUID().slice(0, 8)}`;
  const start = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const end = new Date(Date.now() + 30 * 86_400_000 + 3 * 3_600_000).toISOString();
  const ticketTypes = types.map((t, i) => ({ id: `${id}-t${i}`, name: t.name, total: t.seats }));
  insertEvent(
    db,
    {
      id,
      name,
      description: 'Benchmark event.',
      category: 'concerts',
      city: 'Mumbai',
      imagesUrls: [],
      posterUrl: null,
      startTime: start,
      endTime: end,
      eventLocationText: 'Bench Arena, Mumbai',
      googleMapsEmbedLink: null,
      ageRestrictions: null,
      artistLineup: null,
      termsAndConditions: [],
      platformFeeRate: null,
      tickets: [
        {
          id: `${id}-d`,
          dateOfEvent: start,
          isLive: true,
          slots: [
            {
              id: `${id}-s`,
              startTime: start,
              endTime: end,
              tickets: ticketTypes.map((t, i) => ({
                id: t.id,
                name: t.name,
                pricePaise: 99_900 + i * 150_000,
                personAllowedPerTicket: 1,
                description: `${t.name} entry`,
                isRefundable: true,
                totalTickets: t.total,
                availableTickets: t.total,
                isLive: true,
                benefits: [],
              })),
            },
          ],
        },
      ],
    },
    new Date().toISOString(),
  );
  return { eventId: id, dateId: `${id}-d`, slotId: `${id}-s`, ticketTypes };
}

/** Checkout details every bench buyer sends (the same size as a real buyer's). */
export const BENCH_DETAILS = {
  name: 'Asha Verma',
  email: 'asha.verma@example.com',
  phone: '+91 98765-43210',
  state: 'Maharashtra',
} as const;

/** The payments.start body for one ticket of a type, with the buyer's discount code when given. */
export function startBody(event: BenchEvent, ticketTypeId: string, discountCode?: string): string {
  return JSON.stringify({
    eventId: event.eventId,
    selectedDate: event.dateId,
    selectedSlot: event.slotId,
    selectedTickets: [{ ticketTypeId, quantity: 1 }],
    ticketDetails: BENCH_DETAILS,
    userCity: 'Mumbai',
    ...(discountCode && { discountCode }),
  });
}

export interface BoxOffice {
  quotaId: string;
  quotaCapacity: number;
  discountCodeId: string;
  /** As the buyers type it (lower case: codes are matched case-insensitively, ADR 0037). */
  code: string;
}

/**
 * The box office in play (issue 40): a shared capacity over all the event's ticket types (ADR 0039) and a
 * 10 % discount code for all of them with a total and a per-buyer limit (ADR 0037), made by the app's own
 * services as the console makes them, so Proceed takes a code use and a quota seat under its lock.
 */
export async function addBoxOffice(
  db: Db,
  event: BenchEvent,
  options: { quotaCapacity: number; maxUses: number; maxUsesPerBuyer: number },
): Promise<BoxOffice> {
  const now = new Date();
  const ticketTypeIds = event.ticketTypes.map((t) => t.id);
  const quota = await createQuota(
    db,
    event.eventId,
    { name: 'Whole house', capacity: options.quotaCapacity, slotIds: [event.slotId], ticketTypeIds },
    now,
  );
  const code = await createDiscountCode(
    db,
    event.eventId,
    {
      code: 'RUSH10',
      kind: 'percent',
      percentOff: 10,
      amountOffPaise: null,
      ticketTypeIds,
      validFrom: null,
      validUntil: null,
      maxUses: options.maxUses,
      maxUsesPerBuyer: options.maxUsesPerBuyer,
      unlocksTicketTypeIds: null,
    },
    now,
  );
  return {
    quotaId: quota.id,
    quotaCapacity: options.quotaCapacity,
    discountCodeId: code.id,
    code: 'rush10',
  };
}

export interface BoxOfficeCount {
  /** The quota's invariant (ADR 0039): available + held + sold of its types = capacity, none negative. */
  quota: { capacity: number; available: number; held: number; sold: number; invariant: boolean };
  /** The code's `uses` column, and what it should count: unreturned uses on active holds and on bookings. */
  code: { uses: number; onActiveHolds: number; onBookings: number; bookingsOfEvent: number };
}

/**
 * The quota's counts from its types' rows (`inventoryOf`), as test/helpers/inventory.ts's
 * `quotaCounts` counts them, and the code's uses against the holds and bookings carrying it, in one
 * snapshot.
 */
export function boxOfficeCountOf(
  sqlite: Database.Database,
  event: BenchEvent,
  boxOffice: BoxOffice,
): BoxOfficeCount {
  return sqlite.transaction(() => {
    const types = inventoryAtOnce(sqlite, event);
    const quota = sqlite
      .prepare('select capacity, available from quotas where id = ?')
      .get(boxOffice.quotaId) as { capacity: number; available: number };
    const held = types.reduce((sum, t) => sum + t.held, 0);
    const sold = types.reduce((sum, t) => sum + t.sold, 0);
    const count = (query: string) =>
      (sqlite.prepare(query).get(boxOffice.discountCodeId, event.eventId) as { n: number }).n;
    const uses = (
      sqlite.prepare('select uses from discount_codes where id = ?').get(boxOffice.discountCodeId) as {
        uses: number;
      }
    ).uses;
    return {
      quota: {
        ...quota,
        held,
        sold,
        invariant: quota.available >= 0 && quota.available + held + sold === quota.capacity,
      },
      code: {
        uses,
        onActiveHolds: count(
          `select count(*) as n from holds h
           where h.discount_code_id = ? and h.discount_returned_at is null and h.status = 'active' and h.event_id = ?`,
        ),
        onBookings: count(
          `select count(*) as n from bookings b join payment_orders o on o.id = b.order_id
           join holds h on h.id = o.hold_id
           where h.discount_code_id = ? and h.discount_returned_at is null and b.event_id = ? and b.status = 'confirmed'`,
        ),
        bookingsOfEvent: (
          sqlite.prepare('select count(*) as n from bookings where event_id = ?').get(event.eventId) as {
            n: number;
          }
        ).n,
      },
    };
  })();
}

export interface InventoryRow {
  ticketTypeId: string;
  name: string;
  total: number;
  available: number;
  held: number;
  sold: number;
  invariant: boolean;
}

/** Per ticket type: available + seats in active holds + seats sold (from bookings) must equal total. */
export function inventoryOf(sqlite: Database.Database, event: BenchEvent): InventoryRow[] {
  // One read transaction, so the three reads see one snapshot: when the load generator stops, the
  // server may still be committing the last requests it received, and reads taken a moment apart
  // could count a hold's seats as taken but not yet its lines (the invariant then looks broken).
  return sqlite.transaction(() => inventoryAtOnce(sqlite, event))();
}

function inventoryAtOnce(sqlite: Database.Database, event: BenchEvent): InventoryRow[] {
  return event.ticketTypes.map((t) => {
    const type = sqlite
      .prepare('select total_tickets as total, available_tickets as available from ticket_types where id = ?')
      .get(t.id) as { total: number; available: number };
    const held = sqlite
      .prepare(
        `select coalesce(sum(i.quantity), 0) as n from hold_items i join holds h on h.id = i.hold_id
         where h.status = 'active' and i.ticket_type_id = ?`,
      )
      .get(t.id) as { n: number };
    const sold = sqlite
      .prepare(
        `select coalesce(sum(json_extract(l.value, '$.quantity')), 0) as n
         from bookings b, json_each(b.ticket_types) l where json_extract(l.value, '$.id') = ?`,
      )
      .get(t.id) as { n: number };
    return {
      ticketTypeId: t.id,
      name: t.name,
      total: type.total,
      available: type.available,
      held: held.n,
      sold: sold.n,
      invariant: type.available >= 0 && type.available + held.n + sold.n === type.total,
    };
  });
}
