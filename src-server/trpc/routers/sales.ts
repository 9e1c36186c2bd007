import {
  MonthlyPayoutInput,
  OrdersPageInput,
  PayoutStatementInput,
  SalesOverTimeInput,
} from '../../../shared/sales-schemas.ts';
import { getMonthlyPayoutStatement } from '../../services/sales/get-monthly-payout-statement.ts';
import { getPayoutStatement } from '../../services/sales/get-payout-statement.ts';
import { getSalesDashboard } from '../../services/sales/get-sales-dashboard.ts';
import { getSalesOverTime } from '../../services/sales/get-sales-over-time.ts';
import { listEventOrders } from '../../services/sales/list-event-orders.ts';
import { eventProcedure, organiserProcedure } from '../init.ts';

/**
 * Sales and attendees of one event, part of the console router (`console.salesDashboard`, …): owner,
 * co-organisers and admins (permission `viewSales`); gate staff are not allowed, anyone else is told
 * the event does not exist. The CSV export is the plain route http/orders-csv.ts, with the same rule.
 */
export const salesProcedures = {
  salesDashboard: eventProcedure('viewSales').query(({ ctx }) =>
    getSalesDashboard(ctx.db, ctx.event.id, ctx.deps.clock.now()),
  ),

  salesOverTime: eventProcedure('viewSales')
    .input(SalesOverTimeInput)
    .query(({ ctx, input }) => getSalesOverTime(ctx.db, ctx.event.id, input.bucket)),

  orders: eventProcedure('viewSales')
    .input(OrdersPageInput)
    .query(({ ctx, input: { eventId: _id, limit, after, ...filter } }) =>
      listEventOrders(ctx.db, ctx.event.id, filter, { limit, after }),
    ),

  /** One month's payout statement: the owner and admins only (viewPayouts); its CSV is http/payout-csv.ts. */
  payoutStatement: eventProcedure('viewPayouts')
    .input(PayoutStatementInput)
    .query(({ ctx, input }) => getPayoutStatement(ctx.db, ctx.event.id, input.month)),

  /**
   * The organiser's month, every event of theirs in it (organisers and admins; the rows are the
   * caller's own events, by viewPayouts on each); its CSV is http/payout-csv.ts's /payout.csv.
   */
  monthlyPayoutStatement: organiserProcedure
    .input(MonthlyPayoutInput)
    .query(({ ctx, input }) =>
      getMonthlyPayoutStatement(ctx.db, { userId: ctx.user.id, ...input }, ctx.deps.clock.now()),
    ),
};
