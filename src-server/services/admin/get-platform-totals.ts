import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { numeric, runStatements, sqlRows } from '../../db/engine/reads.ts';

export interface PlatformTotals {
  events: { draft: number; published: number; cancelled: number };
  ticketsSold: number;
  /** Face value of confirmed bookings (subtotals), before convenience fees and GST. */
  grossPaise: number;
  /** Convenience fees charged on confirmed bookings, GST on them not included. */
  feesPaise: number;
  refunds: number;
  refundsPaise: number;
}

/**
 * The installation's totals for the admin page, in one statement of aggregates. It reads every booking
 * and refund, which is fine for an admin-only panel opened now and then (not a request path buyers
 * hit); an installation with millions of bookings would keep running totals instead.
 */
export async function getPlatformTotals(db: DbOrTx): Promise<PlatformTotals> {
  const [found] = await runStatements(db, (db) =>
    sqlRows<{
      draft: number;
      published: number;
      cancelled: number;
      sold: number;
      gross: number;
      fees: number;
      refunds: number;
      refunded: number;
    }>(
      db,
      sql`
    select
      (select count(*) from events where status = 'draft') as draft,
      (select count(*) from events where status = 'published') as published,
      (select count(*) from events where status = 'cancelled') as cancelled,
      b.sold, b.gross, b.fees, r.refunds, r.refunded
    from
      (select coalesce(sum(ticket_count), 0) as sold, coalesce(sum(subtotal_amount_paise), 0) as gross,
              coalesce(sum(fee_amount_paise), 0) as fees
         from bookings where status = 'confirmed') b,
      (select count(*) as refunds, coalesce(sum(amount_paise), 0) as refunded from refunds) r
  `,
    ),
  );
  const row = numeric(found!, [
    'draft',
    'published',
    'cancelled',
    'sold',
    'gross',
    'fees',
    'refunds',
    'refunded',
  ]);
  return {
    events: { draft: row.draft, published: row.published, cancelled: row.cancelled },
    ticketsSold: row.sold,
    grossPaise: row.gross,
    feesPaise: row.fees,
    refunds: row.refunds,
    refundsPaise: row.refunded,
  };
}
