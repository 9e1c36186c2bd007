import { sql } from 'drizzle-orm';
import type { SalesChannel } from '../../../shared/box-office-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements, sqlRows } from '../../db/engine/reads.ts';

export interface BoxOfficeOrder {
  id: string;
  userName: string;
  userEmail: string;
  userPhone: string;
  ticketCount: number;
  status: 'confirmed' | 'cancelled';
  channel: SalesChannel;
  createdAt: string;
}

/**
 * The box office's look-up (issue 40): an event's orders whose booking id, buyer name, e-mail or phone
 * contains the text, newest first, at most 20. Only what the desk needs to answer "is this person booked":
 * no invoices, refunds or takings (the box-office role does not see the Sales page).
 */
export async function lookUpOrders(db: DbOrTx, eventId: string, text: string): Promise<BoxOfficeOrder[]> {
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase()}%`;
  // Quoted aliases: PostgreSQL folds unquoted names to lower case.
  const found = await runStatements(db, (db) =>
    sqlRows<BoxOfficeOrder>(
      db,
      sql`
    select b.id, b.user_name as "userName", b.user_email as "userEmail", b.user_phone as "userPhone",
      b.ticket_count as "ticketCount", b.status,
      coalesce(s.kind, 'online') as channel, b.created_at as "createdAt"
    from bookings b left join box_office_sales s on s.booking_id = b.id
    where b.event_id = ${eventId}
      and (lower(b.id) like ${like} escape '\\' or lower(b.user_name) like ${like} escape '\\'
        or lower(b.user_email) like ${like} escape '\\' or b.user_phone like ${like} escape '\\')
    order by b.created_at desc, b.id desc
    limit 20
  `,
    ),
  );
  return found.map((order) => ({ ...order, ticketCount: Number(order.ticketCount) }));
}
