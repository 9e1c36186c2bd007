import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { indiaMonthBounds } from '../invoices/stream-invoices-csv.ts';
import { type EventMoney, eventMoney } from './event-money.ts';

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
  /** The GST inside ticket revenue, as the organiser's invoices in force charged it. */
  ticketGstPaise: number;
  /** The platform's convenience fees and the GST on them (not the organiser's; shown so the total ties to what buyers paid). */
  convenienceFeesPaise: number;
  feeGstPaise: number;
  /** Refunds recorded this month, pending ones included, and the part of them that came out of ticket revenue. */
  refundsPaise: number;
  refundsPendingPaise: number;
  ticketRefundsPaise: number;
  /** Credit notes issued this month on the organiser's invoices for this event (refunds, and re-issues with a GSTIN). */
  creditNotes: number;
  creditNotesPaise: number;
  /** Given away by discount codes: 0 until discount codes exist (issue 40 builds them beside this). */
  discountsPaise: number;
  /** Complimentary bookings (₹0, ADR 0042). */
  comps: number;
  /** Door sales by method: in ticket revenue, but collected by the organiser at the venue. */
  doorSales: number;
  doorCashPaise: number;
  doorUpiPaise: number;
  /** "Collected at the door": subtracted from the payable, the platform never held it. */
  collectedAtDoorPaise: number;
  /** Ticket revenue − ticket refunds − collected at the door: event-money's payable, for this month. */
  payablePaise: number;
}

export interface PayoutStatement {
  /** Months with a sale or a refund, newest first: the month selector's choices. */
  months: string[];
  /** The month asked for (or the newest with activity; null when the event has none). */
  statement: PayoutMonth | null;
}

/** The statement of one month, and the months there are to choose from. */
export function getPayoutStatement(db: Db, eventId: string, month: string | undefined): PayoutStatement {
  const months = activeMonths(db, eventId);
  const chosen = month ?? months[0];
  return { months, statement: chosen ? payoutMonth(db, eventId, chosen) : null };
}

/** Every month with a sale or a refund, oldest first, and their total (the Sales panel's figures). */
export function payoutMonths(db: Db, eventId: string): { months: PayoutMonth[]; total: PayoutMonth } {
  const months = activeMonths(db, eventId)
    .reverse()
    .map((m) => payoutMonth(db, eventId, m));
  const whole = eventMoney(db, [eventId]).get(eventId)!;
  return { months, total: monthOf('Total', whole, creditNotesOf(db, eventId)) };
}

export function payoutMonth(db: Db, eventId: string, month: string): PayoutMonth {
  const period = indiaMonthBounds(month);
  const money = eventMoney(db, [eventId], period).get(eventId)!;
  return monthOf(month, money, creditNotesOf(db, eventId, period));
}

function monthOf(month: string, money: EventMoney, credit: { count: number; paise: number }): PayoutMonth {
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
    discountsPaise: 0,
    comps: money.compOrders,
    doorSales: money.doorSales,
    doorCashPaise: money.doorCashPaise,
    doorUpiPaise: money.doorUpiPaise,
    collectedAtDoorPaise: money.collectedAtDoorPaise,
    payablePaise: money.payablePaise,
  };
}

/** Months ('yyyy-MM', India time) with a booking made or a refund recorded, newest first. */
function activeMonths(db: Db, eventId: string): string[] {
  return db
    .all<{ month: string }>(sql`
      select strftime('%Y-%m', b.created_at, '+330 minutes') as month from bookings b where b.event_id = ${eventId}
      union
      select strftime('%Y-%m', r.created_at, '+330 minutes') from refunds r
        join bookings b on b.payment_id = r.payment_id where b.event_id = ${eventId}
      union
      select strftime('%Y-%m', p.created_at, '+330 minutes') from refund_parts p
        join bookings b on b.id = p.booking_id where b.event_id = ${eventId}
      order by month desc
    `)
    .map((r) => r.month);
}

/** Credit notes on the event's admission invoices (the organiser's documents), in the period if one is given. */
function creditNotesOf(
  db: Db,
  eventId: string,
  period?: { from: string; to: string },
): { count: number; paise: number } {
  const row = db.get<{ count: number; paise: number }>(sql`
    select count(*) as count, coalesce(sum(c.total_paise), 0) as paise
    from (select invoice_id, issued_at, total_paise from credit_notes
          union all select invoice_id, issued_at, total_paise from partial_credit_notes) c
    join invoices i on i.id = c.invoice_id
    join bookings b on b.id = i.booking_id
    where b.event_id = ${eventId} and i.kind = 'admission'
      ${period ? sql`and c.issued_at >= ${period.from} and c.issued_at < ${period.to}` : sql``}
  `);
  return row ?? { count: 0, paise: 0 };
}
