import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { isPostgres, numeric, readSnapshot, sqlRows } from '../../db/engine/reads.ts';
import { listDiscountCodes } from '../discounts/list-discount-codes.ts';
import { eventMoneySteps } from './event-money.ts';

/**
 * The sales dashboard of one event (docs/decisions/0020-sales-dashboard.md). Each panel is one SQL
 * aggregate: the database adds up the bookings, holds and refunds, never a loop in JavaScript, so a
 * panel costs the same for 10 orders as for 10,000 (the event's index on bookings bounds the read).
 *
 * Money is the one definition of event-money.ts (ticket revenue, the GST in it, the platform's fees,
 * refunds, payable to the organiser), the same the console's list shows. "Sold" counts tickets of confirmed bookings; "held" counts seats in holds that are
 * active and not yet expired (a buyer at the payment step).
 */
export async function getSalesDashboard(db: DbOrTx, eventId: string, now: Date) {
  const panels = await readSnapshot(db, (db) => panelsSteps(db, eventId, now.toISOString()));
  return {
    ...panels,
    /** Each discount code's uses and the revenue it gave away (issue 40). */
    discountCodes: await listDiscountCodes(db, eventId),
  };
}

/** The panels in one snapshot (either engine), so money, types, slots and check-ins agree. */
function* panelsSteps(db: DbOrTx, eventId: string, at: string) {
  return {
    money: (yield* eventMoneySteps(db, [eventId])).get(eventId)!,
    ticketTypes: yield* ticketTypesPanel(db, eventId, at),
    slots: yield* slotsPanel(db, eventId, at),
    checkIns: yield* checkInsPanel(db, eventId),
  };
}

export type SalesDashboard = Awaited<ReturnType<typeof getSalesDashboard>>;

/**
 * Per ticket type: capacity, sold (from the confirmed bookings' own lines, so a booking with two types
 * counts each), held now, and the face value sold. A booking's stored lines are read in SQL: SQLite's
 * json_each over its JSON text, PostgreSQL's jsonb_array_elements over its jsonb (ADR 0020).
 */
function* ticketTypesPanel(db: DbOrTx, eventId: string, at: string) {
  const lines = bookedLines(db);
  const found = yield* sqlRows<{
    id: string;
    name: string;
    slot_id: string;
    slot_start: string;
    slot_end: string;
    price: number;
    capacity: number;
    // SQLite's booleans are integers, PostgreSQL's booleans.
    on_sale: number | boolean;
    hidden: number | boolean;
    sold: number;
    face: number;
    held: number;
    waiting: number;
    offered: number;
  }>(
    db,
    sql`
    with sold as (
      select ${lines.typeId} as type_id,
        sum(${lines.quantity}) as quantity,
        sum(${lines.quantity} * ${lines.price}) as face
      from bookings b, ${lines.from}
      where b.event_id = ${eventId} and b.status = 'confirmed'
      group by type_id
    ),
    held as (
      select i.ticket_type_id as type_id, sum(i.quantity) as quantity
      from holds h join hold_items i on i.hold_id = h.id
      where h.event_id = ${eventId} and h.status = 'active' and h.expires_at > ${at}
      group by i.ticket_type_id
    )
    select t.id, t.name, s.id as slot_id, s.start_time as slot_start, s.end_time as slot_end,
      t.price_paise as price, t.total_tickets as capacity, t.is_live as on_sale, t.is_hidden as hidden,
      coalesce(sold.quantity, 0) as sold, coalesce(sold.face, 0) as face, coalesce(held.quantity, 0) as held,
      (select count(*) from waitlist_entries w where w.ticket_type_id = t.id and w.status = 'waiting') as waiting,
      (select count(*) from waitlist_entries w where w.ticket_type_id = t.id and w.status = 'offered') as offered
    from event_dates d
    join slots s on s.event_date_id = d.id
    join ticket_types t on t.slot_id = s.id
    left join sold on sold.type_id = t.id
    left join held on held.type_id = t.id
    where d.event_id = ${eventId}
    order by s.start_time, t.position, t.id
  `,
  );
  return found.map((found) => {
    const r = numeric(found, ['price', 'capacity', 'sold', 'face', 'held', 'waiting', 'offered']);
    return {
      id: r.id,
      name: r.name,
      slotId: r.slot_id,
      slotStart: r.slot_start,
      slotEnd: r.slot_end,
      pricePaise: r.price,
      capacity: r.capacity,
      onSale: r.on_sale === true || r.on_sale === 1,
      /** Sold only with an access code (ADR 0038): the codes form offers it to unlock. */
      hidden: r.hidden === true || r.hidden === 1,
      sold: r.sold,
      held: r.held,
      soldFaceValuePaise: r.face,
      /** The waiting list (issue 19): entries waiting, and entries holding an offer now. */
      waitlistWaiting: r.waiting,
      waitlistOffered: r.offered,
    };
  });
}

/** A booking's stored lines as rows of `line`, and their fields, in each engine's JSON functions. */
function bookedLines(db: DbOrTx) {
  if (isPostgres(db)) {
    return {
      from: sql`jsonb_array_elements(b.ticket_types) as line(value)`,
      typeId: sql`line.value->>'id'`,
      quantity: sql`(line.value->>'quantity')::bigint`,
      price: sql`(line.value->>'pricePaise')::bigint`,
    };
  }
  return {
    from: sql`json_each(b.ticket_types) line`,
    typeId: sql`json_extract(line.value, '$.id')`,
    quantity: sql`json_extract(line.value, '$.quantity')`,
    price: sql`json_extract(line.value, '$.pricePaise')`,
  };
}

/** Per slot: capacity of its ticket types, tickets sold, seats held now, and the face value sold. */
function* slotsPanel(db: DbOrTx, eventId: string, at: string) {
  const found = yield* sqlRows<{
    id: string;
    start_time: string;
    end_time: string;
    capacity: number;
    sold: number;
    face: number;
    held: number;
    orders: number;
  }>(
    db,
    sql`
    with sold as (
      select b.slot_id, sum(b.ticket_count) as tickets, sum(b.subtotal_amount_paise) as face, count(*) as orders
      from bookings b
      where b.event_id = ${eventId} and b.status = 'confirmed'
      group by b.slot_id
    ),
    held as (
      select h.slot_id, sum(i.quantity) as quantity
      from holds h join hold_items i on i.hold_id = h.id
      where h.event_id = ${eventId} and h.status = 'active' and h.expires_at > ${at}
      group by h.slot_id
    )
    select s.id, s.start_time, s.end_time,
      (select coalesce(sum(t.total_tickets), 0) from ticket_types t where t.slot_id = s.id) as capacity,
      coalesce(sold.tickets, 0) as sold, coalesce(sold.face, 0) as face, coalesce(sold.orders, 0) as orders,
      coalesce(held.quantity, 0) as held
    from event_dates d
    join slots s on s.event_date_id = d.id
    left join sold on sold.slot_id = s.id
    left join held on held.slot_id = s.id
    where d.event_id = ${eventId}
    order by s.start_time, s.id
  `,
  );
  return found.map((found) => {
    const r = numeric(found, ['capacity', 'sold', 'face', 'held', 'orders']);
    return {
      id: r.id,
      startTime: r.start_time,
      endTime: r.end_time,
      capacity: r.capacity,
      sold: r.sold,
      held: r.held,
      orders: r.orders,
      soldFaceValuePaise: r.face,
    };
  });
}

/** People let in so far, out of the people the confirmed bookings admit. */
function* checkInsPanel(db: DbOrTx, eventId: string) {
  const [found] = yield* sqlRows<{
    admitted: number;
    expected: number;
    bookings_in: number;
    bookings: number;
  }>(
    db,
    sql`
    select coalesce(sum(b.number_of_user_checked_in), 0) as admitted,
      coalesce(sum(b.total_user_allowed), 0) as expected,
      coalesce(sum(case when b.number_of_user_checked_in > 0 then 1 else 0 end), 0) as bookings_in,
      count(*) as bookings
    from bookings b
    where b.event_id = ${eventId} and b.status = 'confirmed'
  `,
  );
  const row = numeric(found!, ['admitted', 'expected', 'bookings_in', 'bookings']);
  return {
    peopleAdmitted: row.admitted,
    peopleExpected: row.expected,
    bookingsCheckedIn: row.bookings_in,
    bookings: row.bookings,
  };
}
