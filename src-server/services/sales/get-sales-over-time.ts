import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export interface SalesBucket {
  /** Start of the India-time day or hour, as a UTC ISO instant. */
  start: string;
  orders: number;
  tickets: number;
  /** What buyers paid in this bucket (tickets, fees and GST), cancelled bookings included. */
  grossPaise: number;
}

// India has kept UTC+05:30 without daylight saving since 1945, so shifting by 330 minutes is exact.
const BUCKET_FORMAT = { day: '%Y-%m-%dT00:00', hour: '%Y-%m-%dT%H:00' } as const;

/**
 * The dashboard chart: bookings made per India-time day (or hour), in one GROUP BY query. Buckets with
 * no sales are absent; the chart draws them as gaps of zero. The sums equal the money panel's gross.
 */
export function getSalesOverTime(db: Db, eventId: string, bucket: 'day' | 'hour'): SalesBucket[] {
  const rows = db.all<{ bucket: string; orders: number; tickets: number; gross: number }>(sql`
    select strftime(${BUCKET_FORMAT[bucket]}, b.created_at, '+330 minutes') as bucket,
      count(*) as orders, sum(b.ticket_count) as tickets, sum(b.total_amount_paise) as gross
    from bookings b
    where b.event_id = ${eventId}
    group by bucket
    order by bucket
  `);
  return rows.map((r) => ({
    start: new Date(`${r.bucket}:00+05:30`).toISOString(),
    orders: r.orders,
    tickets: r.tickets,
    grossPaise: r.gross,
  }));
}
