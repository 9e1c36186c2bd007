import { type SQL, sql } from 'drizzle-orm';

/** Issue 14's statuses: a draft or cancelled event says so; a published one is on sale, ended or past. */
export type ConsoleEventStatus = 'draft' | 'cancelled' | 'on_sale' | 'sale_ended' | 'past';

/** What `eventFigureColumns` adds to a row of `events e`. */
export interface EventFigureRow {
  status: 'draft' | 'published' | 'cancelled';
  next_start: string | null;
  upcoming: number;
  on_sale: number;
  sold: number;
  capacity: number;
}

/**
 * The console's per-event figures as select-list columns over `events e` (correlated subqueries in SQL
 * both engines run: a boolean column is a condition on either), so a list computes them in its one query: the next slot to come, whether the event is
 * still upcoming (the `last_ends_at` the storefront's lists keep, services/catalog/refresh-event-listing.ts)
 * and has a ticket type on sale, tickets sold and capacity. Money is not here: it has one definition,
 * services/sales/event-money.ts, which the lists read beside these figures.
 */
export function eventFigureColumns(now: Date): SQL {
  const at = now.toISOString();
  return sql`e.status,
      (select min(s.start_time) from slots s join event_dates d on d.id = s.event_date_id
        where d.event_id = e.id and s.start_time >= ${at}) as next_start,
      case when e.last_ends_at >= ${at} then 1 else 0 end as upcoming,
      case when exists (select 1 from ticket_types t join slots s on s.id = t.slot_id
                          join event_dates d on d.id = s.event_date_id
                         where d.event_id = e.id and d.is_live and t.is_live
                           and t.available_tickets > 0 and s.end_time >= ${at})
           then 1 else 0 end as on_sale,
      (select coalesce(sum(b.ticket_count), 0) from bookings b
        where b.event_id = e.id and b.status = 'confirmed') as sold,
      (select coalesce(sum(t.total_tickets), 0) from ticket_types t join slots s on s.id = t.slot_id
         join event_dates d on d.id = s.event_date_id where d.event_id = e.id) as capacity`;
}

/** The figures' numbers as numbers: PostgreSQL answers a sum of bigints as text. */
export const EVENT_FIGURE_NUMBERS = ['upcoming', 'on_sale', 'sold', 'capacity'] as const;

/** The status a console list shows, from the stored status and the figures. */
export function consoleStatus(
  row: Pick<EventFigureRow, 'status' | 'upcoming' | 'on_sale'>,
): ConsoleEventStatus {
  if (row.status !== 'published') return row.status;
  if (!row.upcoming) return 'past';
  return row.on_sale ? 'on_sale' : 'sale_ended';
}
