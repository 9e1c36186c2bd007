import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { SalesChannel } from '../../../shared/box-office-schemas.ts';
import { mobileDigitsSearchedBy } from '../../../shared/indian-mobile.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { escapeLike, likeEscapedOn } from '../../db/like.ts';

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
  const like = `%${escapeLike(text)}%`;
  // A mobile as typed at the desk ('+91 98200 12345') against the stored ten digits.
  const digits = mobileDigitsSearchedBy(text);
  return runStatements(db, (db) => {
    const { bookings, boxOfficeSales } = tablesOf(db);
    return rows<BoxOfficeOrder>(
      db
        .select({
          id: bookings.id,
          userName: bookings.userName,
          userEmail: bookings.userEmail,
          userPhone: bookings.userPhone,
          ticketCount: bookings.ticketCount,
          status: bookings.status,
          channel: sql<SalesChannel>`coalesce(${boxOfficeSales.kind}, 'online')`,
          createdAt: bookings.createdAt,
        })
        .from(bookings)
        .leftJoin(boxOfficeSales, eq(boxOfficeSales.bookingId, bookings.id))
        .where(
          and(
            eq(bookings.eventId, eventId),
            or(
              likeEscapedOn(db, bookings.id, like),
              likeEscapedOn(db, bookings.userName, like),
              likeEscapedOn(db, bookings.userEmail, like),
              ...(digits.length >= 3 ? [likeEscapedOn(db, bookings.userPhone, `%${digits}%`)] : []),
            ),
          ),
        )
        .orderBy(desc(bookings.createdAt), desc(bookings.id))
        .limit(20),
    );
  });
}
