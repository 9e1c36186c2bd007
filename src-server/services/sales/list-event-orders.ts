import { and, asc, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { mobileDigitsSearchedBy } from '../../../shared/indian-mobile.ts';
import { type OrdersFilter, SALES_MESSAGES } from '../../../shared/sales-schemas.ts';
import type { DbOrTx } from '../../db/client.ts';
import { runStatements } from '../../db/engine/reads.ts';
import { row, rows } from '../../db/engine/steps.ts';
import { type Tables, tablesOf } from '../../db/engine/tables.ts';
import { escapeLike, likeEscapedOn } from '../../db/like.ts';
import { DomainError } from '../../errors.ts';

type OrderRows = ReturnType<typeof orderPageQuery>;
export type EventOrder = OrderRows extends { all(): (infer R)[] } ? R : never;

/**
 * One page of an event's orders (its bookings), newest or oldest first, filtered by a search over
 * buyer name, e-mail, mobile and booking id, by slot and by status. Keyset paging on (created_at, id):
 * page 200 costs what page 1 does, and the CSV export walks the same pages (stream-orders-csv.ts).
 * `total` counts every row the filter matches, for "x of N".
 */
export function listEventOrders(
  db: DbOrTx,
  eventId: string,
  filter: OrdersFilter,
  page: { limit: number; after?: string | undefined },
) {
  // Written once for both engines (ADR 0045); the page and its count each on their own, as before.
  return runStatements(db, function* (db) {
    const { bookings } = tablesOf(db);
    const found = yield* orderPageSteps(db, eventId, filter, { limit: page.limit + 1, after: page.after });
    const more = found.length > page.limit;
    const shown = more ? found.slice(0, page.limit) : found;
    const last = shown.at(-1);
    const total = (yield* row(
      db
        .select({ n: count().mapWith(Number) })
        .from(bookings)
        .where(and(...filterConditions(db, eventId, filter))),
    ))!.n;
    return { orders: shown, total, next: more && last ? cursorOf(last) : null };
  });
}

/** `<created_at>|<id>` of a row: where the next page starts. */
export const cursorOf = (row: { createdAt: string; id: string }) => `${row.createdAt}|${row.id}`;

/** The rows of one page, without the count: what the CSV export reads page after page. */
export function* orderPageSteps(
  db: DbOrTx,
  eventId: string,
  filter: OrdersFilter,
  page: { limit: number; after?: string | undefined },
) {
  return yield* rows(orderPageQuery(db, eventId, filter, page));
}

function orderPageQuery(
  db: DbOrTx,
  eventId: string,
  filter: OrdersFilter,
  page: { limit: number; after?: string | undefined },
) {
  const { bookings, refunds } = tablesOf(db);
  const newest = filter.sort === 'newest';
  const conditions = filterConditions(db, eventId, filter);
  if (page.after) conditions.push(afterCursor(bookings, page.after, newest));
  return db
    .select({
      id: bookings.id,
      createdAt: bookings.createdAt,
      status: bookings.status,
      userName: bookings.userName,
      userEmail: bookings.userEmail,
      userPhone: bookings.userPhone,
      userState: bookings.userState,
      userCity: bookings.userCity,
      slotId: bookings.slotId,
      slotStart: bookings.ticketSlot,
      slotEnd: bookings.ticketSlotEnd,
      lines: bookings.ticketTypes,
      ticketCount: bookings.ticketCount,
      persons: bookings.totalUserAllowed,
      checkedIn: bookings.numberOfUserCheckedIn,
      subtotalPaise: bookings.subtotalAmountPaise,
      discountCode: bookings.discountCode,
      discountPaise: bookings.discountPaise,
      feePaise: bookings.feeAmountPaise,
      gstPaise: bookings.igstAmountPaise,
      totalPaise: bookings.totalAmountPaise,
      // PostgreSQL answers a sum as text.
      refundedPaise:
        sql<number>`coalesce(${refunds.amountPaise}, 0) + (select coalesce(sum(p.amount_paise), 0) from refund_parts p where p.booking_id = ${bookings.id})`.mapWith(
          Number,
        ),
    })
    .from(bookings)
    .leftJoin(refunds, eq(refunds.paymentId, bookings.paymentId))
    .where(and(...conditions))
    .orderBy(
      newest ? desc(bookings.createdAt) : asc(bookings.createdAt),
      newest ? desc(bookings.id) : asc(bookings.id),
    )
    .limit(page.limit);
}

function filterConditions(db: DbOrTx, eventId: string, filter: OrdersFilter): SQL[] {
  const { bookings } = tablesOf(db);
  const conditions: SQL[] = [eq(bookings.eventId, eventId)];
  if (filter.slotId) conditions.push(eq(bookings.slotId, filter.slotId));
  if (filter.status) conditions.push(eq(bookings.status, filter.status));
  if (filter.q) conditions.push(searchCondition(db, bookings, filter.q));
  return conditions;
}

/**
 * Anywhere in the name or e-mail, the mobile's digits, or the start of a booking id (LIKE ignores the
 * case of ASCII letters, so 'jb7k' finds 'JB7K…'; ILIKE on PostgreSQL). The event's index narrows the
 * rows first; an event has at most its capacity.
 */
function searchCondition(db: DbOrTx, bookings: Tables['bookings'], q: string): SQL {
  const anywhere = `%${escapeLike(q)}%`;
  const parts = [
    likeEscapedOn(db, bookings.userName, anywhere),
    likeEscapedOn(db, bookings.userEmail, anywhere),
    likeEscapedOn(db, bookings.id, `${escapeLike(q)}%`),
  ];
  const digits = mobileDigitsSearchedBy(q);
  if (digits.length >= 3) parts.push(sql`${bookings.userPhone} like ${`%${digits}%`}`);
  return or(...parts)!;
}

function afterCursor(bookings: Tables['bookings'], cursor: string, newest: boolean): SQL {
  const split = cursor.indexOf('|');
  const createdAt = cursor.slice(0, split);
  const id = cursor.slice(split + 1);
  if (split < 0 || !createdAt || !id) throw new DomainError('BAD_REQUEST', SALES_MESSAGES.badCursor);
  // A row-value comparison, which SQLite (and PostgreSQL) turn into a range on the event's index.
  return newest
    ? sql`(${bookings.createdAt}, ${bookings.id}) < (${createdAt}, ${id})`
    : sql`(${bookings.createdAt}, ${bookings.id}) > (${createdAt}, ${id})`;
}
