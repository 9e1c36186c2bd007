import { sql } from 'drizzle-orm';
import type { TeamRole } from '../../../shared/organiser-schemas.ts';
import type { Db } from '../../db/client.ts';

/** Issue 14's statuses: a draft or cancelled event says so; a published one is on sale, ended or past. */
export type ConsoleEventStatus = 'draft' | 'cancelled' | 'on_sale' | 'sale_ended' | 'past';

export interface MyEvent {
  id: string;
  name: string;
  city: string;
  myRole: 'owner' | TeamRole;
  status: ConsoleEventStatus;
  /** Start of the next slot still to come, or null. */
  nextStart: string | null;
  sold: number;
  capacity: number;
  /** Face value of the tickets sold (confirmed bookings' subtotals), before convenience fees and GST. */
  grossPaise: number;
}

/**
 * The console home: the events the caller owns or is on the team of, with their figures computed by
 * the database in one query (correlated subqueries, portable SQL), soonest first, past events last.
 */
export function listMyEvents(db: Db, userId: string, now: Date): MyEvent[] {
  const at = now.toISOString();
  const rows = db.all<{
    id: string;
    name: string;
    city: string;
    my_role: 'owner' | TeamRole;
    next_start: string | null;
    upcoming: number;
    on_sale: number;
    sold: number;
    capacity: number;
    gross: number;
    status: 'draft' | 'published' | 'cancelled';
  }>(sql`
    select e.id, e.name, e.city, e.status,
      case when e.owner_id = ${userId} then 'owner'
           else (select m.role from event_team_members m where m.event_id = e.id and m.user_id = ${userId})
      end as my_role,
      (select min(s.start_time) from slots s join event_dates d on d.id = s.event_date_id
        where d.event_id = e.id and s.start_time >= ${at}) as next_start,
      case when coalesce(e.end_time, e.start_time) >= ${at}
             or exists (select 1 from slots s join event_dates d on d.id = s.event_date_id
                         where d.event_id = e.id and s.end_time >= ${at})
           then 1 else 0 end as upcoming,
      case when exists (select 1 from ticket_types t join slots s on s.id = t.slot_id
                          join event_dates d on d.id = s.event_date_id
                         where d.event_id = e.id and d.is_live = 1 and t.is_live = 1
                           and t.available_tickets > 0 and s.end_time >= ${at})
           then 1 else 0 end as on_sale,
      (select coalesce(sum(b.ticket_count), 0) from bookings b
        where b.event_id = e.id and b.status = 'confirmed') as sold,
      (select coalesce(sum(t.total_tickets), 0) from ticket_types t join slots s on s.id = t.slot_id
         join event_dates d on d.id = s.event_date_id where d.event_id = e.id) as capacity,
      (select coalesce(sum(b.subtotal_amount_paise), 0) from bookings b
        where b.event_id = e.id and b.status = 'confirmed') as gross
    from events e
    where e.owner_id = ${userId}
       or exists (select 1 from event_team_members m where m.event_id = e.id and m.user_id = ${userId})
    order by next_start nulls last, e.name
  `);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    city: r.city,
    myRole: r.my_role,
    status: r.status !== 'published' ? r.status : !r.upcoming ? 'past' : r.on_sale ? 'on_sale' : 'sale_ended',
    nextStart: r.next_start,
    sold: r.sold,
    capacity: r.capacity,
    grossPaise: r.gross,
  }));
}
