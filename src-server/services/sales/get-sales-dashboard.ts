import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { listDiscountCodes } from '../discounts/list-discount-codes.ts';
import { eventMoney } from './event-money.ts';

/**
 * The sales dashboard of one event (docs/decisions/0020-sales-dashboard.md). Each panel is one SQL
 * aggregate: the database adds up the bookings, holds and refunds, never a loop in JavaScript, so a
 * panel costs the same for 10 orders as for 10,000 (the event's index on bookings bounds the read).
 *
 * Money is the one definition of event-money.ts (ticket revenue, the GST in it, the platform's fees,
 * refunds, payable to the organiser), the same the console's list shows. "Sold" counts tickets of confirmed bookings; "held" counts seats in holds that are
 * active and not yet expired (a buyer at the payment step).
 */
export async function getSalesDashboard(db: Db, eventId: string, now: Date) {
  const at = now.toISOString();
  return {
    money: eventMoney(db, [eventId]).get(eventId)!,
    ticketTypes: ticketTypesPanel(db, eventId, at),
    slots: slotsPanel(db, eventId, at),
    checkIns: checkInsPanel(db, eventId),
    /** Each discount code's uses and the revenue it gave away (issue 40). */
    discountCodes: await listDiscountCodes(db, eventId),
  };
}

export type SalesDashboard = Awaited<ReturnType<typeof getSalesDashboard>>;

/**
 * Per ticket type: capacity, sold (from the confirmed bookings' own lines, so a booking with two types
 * counts each), held now, and the face value sold. json_each reads a booking's stored lines in SQL;
 * PostgreSQL's json_array_elements is the same shape if the database ever moves (ADR 0020).
 */
function ticketTypesPanel(db: Db, eventId: string, at: string) {
  const rows = db.all<{
    id: string;
    name: string;
    slot_id: string;
    slot_start: string;
    slot_end: string;
    price: number;
    capacity: number;
    on_sale: number;
    hidden: number;
    sold: number;
    face: number;
    held: number;
    waiting: number;
    offered: number;
  }>(sql`
    with sold as (
      select json_extract(line.value, '$.id') as type_id,
        sum(json_extract(line.value, '$.quantity')) as quantity,
        sum(json_extract(line.value, '$.quantity') * json_extract(line.value, '$.pricePaise')) as face
      from bookings b, json_each(b.ticket_types) line
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
  `);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slotId: r.slot_id,
    slotStart: r.slot_start,
    slotEnd: r.slot_end,
    pricePaise: r.price,
    capacity: r.capacity,
    onSale: r.on_sale === 1,
    /** Sold only with an access code (ADR 0038): the codes form offers it to unlock. */
    hidden: r.hidden === 1,
    sold: r.sold,
    held: r.held,
    soldFaceValuePaise: r.face,
    /** The waiting list (issue 19): entries waiting, and entries holding an offer now. */
    waitlistWaiting: r.waiting,
    waitlistOffered: r.offered,
  }));
}

/** Per slot: capacity of its ticket types, tickets sold, seats held now, and the face value sold. */
function slotsPanel(db: Db, eventId: string, at: string) {
  const rows = db.all<{
    id: string;
    start_time: string;
    end_time: string;
    capacity: number;
    sold: number;
    face: number;
    held: number;
    orders: number;
  }>(sql`
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
  `);
  return rows.map((r) => ({
    id: r.id,
    startTime: r.start_time,
    endTime: r.end_time,
    capacity: r.capacity,
    sold: r.sold,
    held: r.held,
    orders: r.orders,
    soldFaceValuePaise: r.face,
  }));
}

/** People let in so far, out of the people the confirmed bookings admit. */
function checkInsPanel(db: Db, eventId: string) {
  const row = db.get<{ admitted: number; expected: number; bookings_in: number; bookings: number }>(sql`
    select coalesce(sum(b.number_of_user_checked_in), 0) as admitted,
      coalesce(sum(b.total_user_allowed), 0) as expected,
      coalesce(sum(case when b.number_of_user_checked_in > 0 then 1 else 0 end), 0) as bookings_in,
      count(*) as bookings
    from bookings b
    where b.event_id = ${eventId} and b.status = 'confirmed'
  `)!;
  return {
    peopleAdmitted: row.admitted,
    peopleExpected: row.expected,
    bookingsCheckedIn: row.bookings_in,
    bookings: row.bookings,
  };
}
