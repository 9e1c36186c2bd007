import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { numeric, runStatements, sqlRows } from '../../db/engine/reads.ts';
import { indiaTimeText } from './india-time-sql.ts';

export interface SalesBucket {
  /** Start of the India-time day or hour, as a UTC ISO instant. */
  start: string;
  orders: number;
  tickets: number;
  /** What buyers paid in this bucket (tickets, fees and GST), cancelled bookings included. */
  grossPaise: number;
}

/**
 * The dashboard chart: bookings made per India-time day (or hour), in one GROUP BY query. Buckets with
 * no sales are absent; the chart draws them as gaps of zero. The sums equal the money panel's gross.
 */
export async function getSalesOverTime(
  db: DbOrTx,
  eventId: string,
  bucket: 'day' | 'hour',
): Promise<SalesBucket[]> {
  const found = await runStatements(db, (db) =>
    sqlRows<{ bucket: string; orders: number; tickets: number; gross: number }>(
      db,
      sql`
    select ${indiaTimeText(db, sql`b.created_at`, bucket)} as bucket,
      count(*) as orders, sum(b.ticket_count) as tickets, sum(b.total_amount_paise) as gross
    from bookings b
    where b.event_id = ${eventId}
    group by bucket
    order by bucket
  `,
    ),
  );
  return found
    .map((found) => numeric(found, ['orders', 'tickets', 'gross']))
    .map((r) => ({
      start: new Date(`${r.bucket}:00+05:30`).toISOString(),
      orders: r.orders,
      tickets: r.tickets,
      grossPaise: r.gross,
    }));
}
