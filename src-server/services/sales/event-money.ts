import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { numeric, sqlRows } from '../../db/engine/reads.ts';
import type { Steps } from '../../db/engine/steps.ts';
import { partRefundMoneySteps } from '../partial-refunds/part-refund-money.ts';

/**
 * An event's money, in one definition for every page that shows it (issue 35): the Sales page's money
 * panel and the console's and admin's event lists all read it from here. Integer paise throughout.
 *
 * Every booking that took money counts (confirmed and cancelled: a cancelled one's money came in and
 * its refund went out). What a buyer paid splits into two owners:
 * - **the organiser's**: the total less the convenience fee and the GST on it, counted in two parts:
 *   **ticket revenue** (the ticket prices paid, GST in them included; with tax-exclusive prices the GST
 *   added at checkout is in it) and **add-on revenue** (parking, T-shirts and the like sold with the
 *   tickets, ADR 0041, GST included).
 * - **platform fees** (not the organiser's): the convenience fee and its GST.
 * **GST collected** (`ticketGstPaise`) is what the organiser's invoices in force charged (each booking's
 * latest admission invoice; an earlier one was replaced when the buyer added a GSTIN): the GST on the
 * tickets and on the add-ons, which are lines of the same invoice at their own rates. 0 for bookings of
 * an unregistered organiser, whose documents are bills of supply.
 * A **refund** returns money from both owners as the refund rules (shared/refund-policy.ts) and the
 * credit notes (invoices/issue-credit-note.ts) decide: a refund of exactly the organiser's part keeps the
 * fee ('minus_fee'); any other returns the fee in the same share as the whole (a full refund all of
 * it, a percentage refund that percentage, rounded half-up); the rest of it came out of the organiser's
 * part (tickets and add-ons alike). **Payable to the organiser** is ticket revenue + add-on revenue, less
 * the organiser's part of refunds, less what the organiser collected at the door (a door sale's cash or
 * UPI never passed through the platform, ADR 0042); comps are ₹0 and counted apart. Refunds still
 * pending count: that money is going back.
 *
 * **Over a period** (the payout statement's month, issue 40) each flow counts when it happened: a sale in
 * the period its booking was made, a refund in the period it was recorded. So the months of an event add
 * up to its whole, and a refund of an October sale made in November lowers November's payable, as on a
 * bank statement; October's figures never change afterwards.
 */
export interface EventMoney {
  orders: number;
  confirmedOrders: number;
  cancelledOrders: number;
  /** Everything buyers paid: ticket revenue + platform fees. */
  paidByBuyersPaise: number;
  ticketRevenuePaise: number;
  /**
   * Add-ons sold with the tickets (ADR 0041), GST included: the organiser's too, counted apart from
   * ticket revenue (which excludes them), and part of the payable. Their GST is in `ticketGstPaise`.
   */
  addOnRevenuePaise: number;
  /**
   * The GST the organiser's invoices charged, on the tickets and on the add-ons (the organiser owes it
   * to the government): inside ticket revenue + add-on revenue. The name is older than add-ons.
   */
  ticketGstPaise: number;
  /** Convenience fees and the GST on them: the platform's. */
  platformFeesPaise: number;
  /** The convenience fees alone (the platform's). */
  convenienceFeesPaise: number;
  /** The GST on the convenience fees (the platform's to pay). */
  feeGstPaise: number;
  /** Everything refunded to buyers, pending included. */
  refundsPaise: number;
  refundsPendingPaise: number;
  /**
   * The part of refunds that came out of the organiser's money, tickets and add-ons alike (the rest was
   * the platform's fee going back). The name is older than add-ons.
   */
  ticketRefundsPaise: number;
  /** Taken off ticket prices by discount codes (ADR 0037), before GST: what the organiser gave away. */
  discountsPaise: number;
  /** Complimentary bookings (issue 40, ADR 0042): ₹0, counted apart from the orders that paid. */
  compOrders: number;
  /** Door sales by how they were paid: the organiser collected this money at the venue, not the platform. */
  doorSales: number;
  doorCashPaise: number;
  doorUpiPaise: number;
  /** Door cash + door UPI: in ticket revenue, but already in the organiser's hands. */
  collectedAtDoorPaise: number;
  /**
   * Ticket revenue + add-on revenue − the organiser's part of refunds − what was collected at the door:
   * what the platform owes the organiser.
   */
  payablePaise: number;
}

/** An event with no money yet (and the start of any sum of events). */
export const NO_MONEY: EventMoney = {
  orders: 0,
  confirmedOrders: 0,
  cancelledOrders: 0,
  paidByBuyersPaise: 0,
  ticketRevenuePaise: 0,
  addOnRevenuePaise: 0,
  ticketGstPaise: 0,
  platformFeesPaise: 0,
  convenienceFeesPaise: 0,
  feeGstPaise: 0,
  refundsPaise: 0,
  refundsPendingPaise: 0,
  ticketRefundsPaise: 0,
  discountsPaise: 0,
  compOrders: 0,
  doorSales: 0,
  doorCashPaise: 0,
  doorUpiPaise: 0,
  collectedAtDoorPaise: 0,
  payablePaise: 0,
};

/** A half-open range of instants, [from, to), as ISO strings like the stored ones. */
export interface MoneyPeriod {
  from: string;
  to: string;
}

/**
 * The money of each listed event, in one SQL aggregate (no loop over bookings in JavaScript), as read
 * steps (ADR 0045) for a list that reads its rows and their money together; with a period, only what
 * happened in it (sales by their booking's time, refunds by theirs). Run them in one snapshot
 * (`readSnapshot`), so the bookings' and the part refunds' figures are of one moment.
 */
export function* eventMoneySteps(
  db: DbOrTx,
  eventIds: readonly string[],
  period?: MoneyPeriod,
): Steps<Map<string, EventMoney>> {
  const result = new Map<string, EventMoney>(eventIds.map((id) => [id, NO_MONEY]));
  if (eventIds.length === 0) return result;
  const found = yield* sqlRows<MoneyRow>(
    db,
    sql`
    with b as (
      select b.event_id, b.status, b.total_amount_paise as total,
        ${inPeriod(sql`b.created_at`, period)} as sold,
        ${inPeriod(sql`r.created_at`, period)} as refunded_now,
        b.fee_amount_paise as fee, b.igst_amount_paise as fee_gst, b.discount_paise as discount,
        b.total_amount_paise - b.fee_amount_paise - b.igst_amount_paise as tickets,
        b.fee_amount_paise + b.igst_amount_paise as fees,
        (select coalesce(sum(a.total_paise), 0) from booking_add_ons a where a.booking_id = b.id) as add_ons,
        r.amount_paise as refund, r.status as refund_status, s.kind as channel, s.method as door_method,
        (select i.cgst_paise + i.sgst_paise + i.igst_paise from invoices i
          where i.booking_id = b.id and i.kind = 'admission'
          order by i.issued_at desc, i.number desc limit 1) as gst
      from bookings b
      left join refunds r on r.payment_id = b.payment_id
      left join box_office_sales s on s.booking_id = b.id
      where b.event_id in (${sql.join(
        eventIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      ${period ? sql`and (${inPeriod(sql`b.created_at`, period)} = 1 or ${inPeriod(sql`r.created_at`, period)} = 1)` : sql``}
    )
    select event_id, coalesce(sum(sold), 0) as orders,
      coalesce(sum(case when sold = 1 and status = 'confirmed' then 1 else 0 end), 0) as confirmed,
      coalesce(sum(case when sold = 1 and status = 'cancelled' then 1 else 0 end), 0) as cancelled,
      coalesce(sum(sold * total), 0) as paid,
      coalesce(sum(sold * tickets), 0) as tickets,
      coalesce(sum(sold * add_ons), 0) as add_ons,
      coalesce(sum(sold * gst), 0) as gst,
      coalesce(sum(sold * fees), 0) as fees,
      coalesce(sum(sold * fee), 0) as fee,
      coalesce(sum(sold * fee_gst), 0) as fee_gst,
      coalesce(sum(sold * discount), 0) as discounts,
      coalesce(sum(case when refunded_now = 1 then refund else 0 end), 0) as refunded,
      coalesce(sum(case when refunded_now = 1 and refund_status = 'pending' then refund else 0 end), 0) as refund_pending,
      coalesce(sum(case when refunded_now = 0 or refund is null or refund = tickets or total = 0 then 0
                        else (2 * fees * refund + total) / (2 * total) end), 0) as fee_refunded,
      coalesce(sum(case when sold = 1 and channel = 'comp' then 1 else 0 end), 0) as comps,
      coalesce(sum(case when sold = 1 and channel = 'door' then 1 else 0 end), 0) as door_sales,
      coalesce(sum(case when sold = 1 and channel = 'door' and door_method = 'cash' then total else 0 end), 0) as door_cash,
      coalesce(sum(case when sold = 1 and channel = 'door' and door_method = 'upi' then total else 0 end), 0) as door_upi
    from b
    group by event_id
  `,
  );
  const rows = found.map((r) => numeric(r, MONEY_NUMBERS));
  // Part refunds (ADR 0043) are money going back too; each knows its fee share.
  const parts = yield* partRefundMoneySteps(db, eventIds, period);
  for (const r of rows) {
    const part = parts.get(r.event_id);
    if (part) {
      r.refunded += part.refundedPaise;
      r.refund_pending += part.pendingPaise;
      r.fee_refunded += part.feePaise;
    }
    const ticketRefunds = r.refunded - r.fee_refunded;
    result.set(r.event_id, {
      orders: r.orders,
      confirmedOrders: r.confirmed,
      cancelledOrders: r.cancelled,
      paidByBuyersPaise: r.paid,
      ticketRevenuePaise: r.tickets - r.add_ons,
      addOnRevenuePaise: r.add_ons,
      ticketGstPaise: r.gst,
      platformFeesPaise: r.fees,
      convenienceFeesPaise: r.fee,
      feeGstPaise: r.fee_gst,
      refundsPaise: r.refunded,
      refundsPendingPaise: r.refund_pending,
      ticketRefundsPaise: ticketRefunds,
      discountsPaise: r.discounts,
      compOrders: r.comps,
      doorSales: r.door_sales,
      doorCashPaise: r.door_cash,
      doorUpiPaise: r.door_upi,
      collectedAtDoorPaise: r.door_cash + r.door_upi,
      // r.tickets is everything but the platform's fee: ticket revenue and add-on revenue.
      payablePaise: r.tickets - ticketRefunds - r.door_cash - r.door_upi,
    });
  }
  return result;
}

/**
 * 1 when the instant is in the period (always, without one), else 0 (a missing instant too): an
 * integer, not a boolean, so it multiplies on both engines (PostgreSQL has no boolean arithmetic).
 */
function inPeriod(instant: SQL, period: MoneyPeriod | undefined): SQL {
  if (!period) return sql`1`;
  return sql`(case when ${instant} >= ${period.from} and ${instant} < ${period.to} then 1 else 0 end)`;
}

interface MoneyRow {
  event_id: string;
  orders: number;
  confirmed: number;
  cancelled: number;
  paid: number;
  tickets: number;
  add_ons: number;
  gst: number;
  fees: number;
  fee: number;
  fee_gst: number;
  refunded: number;
  refund_pending: number;
  fee_refunded: number;
  discounts: number;
  comps: number;
  door_sales: number;
  door_cash: number;
  door_upi: number;
}

const MONEY_NUMBERS = [
  'orders',
  'confirmed',
  'cancelled',
  'paid',
  'tickets',
  'add_ons',
  'gst',
  'fees',
  'fee',
  'fee_gst',
  'refunded',
  'refund_pending',
  'fee_refunded',
  'discounts',
  'comps',
  'door_sales',
  'door_cash',
  'door_upi',
] as const;
