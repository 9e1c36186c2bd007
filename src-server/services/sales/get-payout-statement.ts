import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { readSnapshot, sqlRows } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';
import { indiaMonthBounds } from '../invoices/stream-invoices-csv.ts';
import { type EventMoney, eventMoneySteps, type MoneyPeriod } from './event-money.ts';
import { indiaTimeText } from './india-time-sql.ts';

/**
 * One month of an event's payout statement (issue 40): what came in, what went back, and what is owed to
 * the organiser, India-time month. Money is event-money.ts's one definition, over the month (each sale
 * in its booking's month, each refund in its own), so a month's figures are the Sales panel's for that
 * month and the months add up to the Sales panel. Integer paise.
 */
export interface PayoutMonth {
  /** 'yyyy-MM', India time. */
  month: string;
  orders: number;
  /** The organiser's: ticket prices paid, GST in them included. */
  ticketRevenuePaise: number;
  /** Add-ons sold with the tickets (ADR 0041), GST included: the organiser's, apart from ticket revenue. */
  addOnRevenuePaise: number;
  /** The GST on tickets and add-ons, as the organiser's invoices in force charged it (inside the two revenues). */
  ticketGstPaise: number;
  /** The platform's convenience fees and the GST on them (not the organiser's; shown so the total ties to what buyers paid). */
  convenienceFeesPaise: number;
  feeGstPaise: number;
  /**
   * Refunds recorded this month, pending ones included, and the part of them that came out of the
   * organiser's money (tickets and add-ons; the rest was the platform's fee going back).
   */
  refundsPaise: number;
  refundsPendingPaise: number;
  ticketRefundsPaise: number;
  /** Credit notes issued this month on the organiser's invoices for this event (refunds, and re-issues with a GSTIN). */
  creditNotes: number;
  creditNotesPaise: number;
  /** Given away by discount codes on the month's sales, before GST (ADR 0037). */
  discountsPaise: number;
  /** Complimentary bookings (₹0, ADR 0042). */
  comps: number;
  /** Door sales by method: in ticket revenue, but collected by the organiser at the venue. */
  doorSales: number;
  doorCashPaise: number;
  doorUpiPaise: number;
  /** "Collected at the door": subtracted from the payable, the platform never held it. */
  collectedAtDoorPaise: number;
  /**
   * Ticket revenue + add-on revenue − the organiser's part of refunds − collected at the door:
   * event-money's payable, for this month.
   */
  payablePaise: number;
}

export interface PayoutStatement {
  /** Months with a sale or a refund, newest first: the month selector's choices. */
  months: string[];
  /** The month asked for (or the newest with activity; null when the event has none). */
  statement: PayoutMonth | null;
}

/** The statement of one month, and the months there are to choose from, in one snapshot (either engine). */
export function getPayoutStatement(
  db: DbOrTx,
  eventId: string,
  month: string | undefined,
): Promise<PayoutStatement> {
  return readSnapshot(db, function* (db) {
    const months = yield* activeMonths(db, eventId);
    const chosen = month ?? months[0];
    return { months, statement: chosen ? yield* payoutMonthSteps(db, eventId, chosen) : null };
  });
}

/** Every month with a sale or a refund, oldest first, and their total (the Sales panel's figures). */
export function payoutMonths(
  db: DbOrTx,
  eventId: string,
): Promise<{ months: PayoutMonth[]; total: PayoutMonth }> {
  return readSnapshot(db, function* (db) {
    const months: PayoutMonth[] = [];
    for (const month of (yield* activeMonths(db, eventId)).reverse()) {
      months.push(yield* payoutMonthSteps(db, eventId, month));
    }
    const whole = (yield* eventMoneySteps(db, [eventId])).get(eventId)!;
    const credit = (yield* creditNotesSteps(db, [eventId])).get(eventId)!;
    return { months, total: payoutMonthOf('Total', whole, credit) };
  });
}

export function payoutMonth(db: DbOrTx, eventId: string, month: string): Promise<PayoutMonth> {
  return readSnapshot(db, (db) => payoutMonthSteps(db, eventId, month));
}

function* payoutMonthSteps(db: DbOrTx, eventId: string, month: string): Steps<PayoutMonth> {
  const period = indiaMonthBounds(month);
  const money = (yield* eventMoneySteps(db, [eventId], period)).get(eventId)!;
  const credit = (yield* creditNotesSteps(db, [eventId], period)).get(eventId)!;
  return payoutMonthOf(month, money, credit);
}

/**
 * A statement's row from event-money.ts's figures and the credit notes: the one place a statement's
 * figures are put together, for an event's months and for the organiser's month (every event in it).
 */
export function payoutMonthOf(month: string, money: EventMoney, credit: CreditNotes): PayoutMonth {
  return {
    month,
    orders: money.orders,
    ticketRevenuePaise: money.ticketRevenuePaise,
    addOnRevenuePaise: money.addOnRevenuePaise,
    ticketGstPaise: money.ticketGstPaise,
    convenienceFeesPaise: money.convenienceFeesPaise,
    feeGstPaise: money.feeGstPaise,
    refundsPaise: money.refundsPaise,
    refundsPendingPaise: money.refundsPendingPaise,
    ticketRefundsPaise: money.ticketRefundsPaise,
    creditNotes: credit.count,
    creditNotesPaise: credit.paise,
    discountsPaise: money.discountsPaise,
    comps: money.compOrders,
    doorSales: money.doorSales,
    doorCashPaise: money.doorCashPaise,
    doorUpiPaise: money.doorUpiPaise,
    collectedAtDoorPaise: money.collectedAtDoorPaise,
    payablePaise: money.payablePaise,
  };
}

/**
 * What makes a month a statement's month: a booking made, or a refund or a part refund recorded. One
 * definition for an event's month selector and for which events the organiser's month lists: rows
 * (event_id, happened_at) for the events `eventIn` admits.
 */
function activity(eventIn: (column: SQL) => SQL): SQL {
  return sql`
    select b.event_id, b.created_at as happened_at from bookings b where ${eventIn(sql`b.event_id`)}
    union all
    select b.event_id, r.created_at from refunds r
      join bookings b on b.payment_id = r.payment_id where ${eventIn(sql`b.event_id`)}
    union all
    select b.event_id, p.created_at from refund_parts p
      join bookings b on b.id = p.booking_id where ${eventIn(sql`b.event_id`)}
  `;
}

/** Months ('yyyy-MM', India time) with activity, newest first. */
function* activeMonths(db: DbOrTx, eventId: string): Steps<string[]> {
  const found = yield* sqlRows<{ month: string }>(
    db,
    sql`
      select distinct ${indiaTimeText(db, sql`a.happened_at`, 'month')} as month
      from (${activity((column) => sql`${column} = ${eventId}`)}) a
      order by month desc
    `,
  );
  return found.map((r) => r.month);
}

/** Which of the events had activity in the period (the same definition as an event's months). */
export function* eventsActiveInSteps(
  db: DbOrTx,
  eventIds: readonly string[],
  period: MoneyPeriod,
): Steps<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const found = yield* sqlRows<{ event_id: string }>(
    db,
    sql`
      select distinct a.event_id from (${activity((column) => sql`${column} in (${idList(eventIds)})`)}) a
      where a.happened_at >= ${period.from} and a.happened_at < ${period.to}
    `,
  );
  return new Set(found.map((r) => r.event_id));
}

export interface CreditNotes {
  count: number;
  paise: number;
}

/** Credit notes on each event's admission invoices (the organiser's documents), in the period if one is given. */
export function* creditNotesSteps(
  db: DbOrTx,
  eventIds: readonly string[],
  period?: MoneyPeriod,
): Steps<Map<string, CreditNotes>> {
  const result = new Map<string, CreditNotes>(eventIds.map((id) => [id, { count: 0, paise: 0 }]));
  if (eventIds.length === 0) return result;
  const found = yield* sqlRows<{ event_id: string; count: number; paise: number }>(
    db,
    sql`
    select b.event_id, count(*) as count, coalesce(sum(c.total_paise), 0) as paise
    from (select invoice_id, issued_at, total_paise from credit_notes
          union all select invoice_id, issued_at, total_paise from partial_credit_notes) c
    join invoices i on i.id = c.invoice_id
    join bookings b on b.id = i.booking_id
    where b.event_id in (${idList(eventIds)}) and i.kind = 'admission'
      ${period ? sql`and c.issued_at >= ${period.from} and c.issued_at < ${period.to}` : sql``}
    group by b.event_id
  `,
  );
  // PostgreSQL answers a count and a sum of bigints as text.
  for (const row of found) result.set(row.event_id, { count: Number(row.count), paise: Number(row.paise) });
  return result;
}

const idList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
