import { and, asc, eq, gte, isNull, lte, or } from 'drizzle-orm';
import { runStatements } from '../../db/engine/reads.ts';
import { changes, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import type { AppDeps } from '../../deps.ts';
import { runDueRefunds } from '../refunds/run-due-refunds.ts';
import { settleGatewayPayment } from './confirm.ts';
import { paymentGatewayOf } from './gateway-of.ts';

/** Orders younger than this are left to the browser callback and the webhook. */
const SETTLE_AFTER_MS = 60_000;
/** How often one open order is asked about. */
const RECHECK_EVERY_MS = 60_000;
/** Orders older than this are no longer checked (a payment cannot start on them any more). */
const GIVE_UP_AFTER_MS = 48 * 60 * 60 * 1000;
const BATCH = 50;

export interface ReconcileReport {
  ordersChecked: number;
  paymentsSettled: number;
  refundsRetried: number;
}

/**
 * The reconciler: asks the gateway about orders still open (a callback and a webhook may both have
 * been lost) and settles any captured payment through the same idempotent confirmation; then retries
 * refunds the gateway has not accepted yet.
 */
export async function reconcilePayments(deps: AppDeps): Promise<ReconcileReport> {
  const report = await reconcileOpenOrders(deps);
  // Refunds are the refund job's (services/refunds); the reconciler gives it a turn as well.
  report.refundsRetried = await runDueRefunds(deps);
  return report;
}

/**
 * The orders' half of the reconciler, on either engine. Each open order is claimed before the gateway
 * is asked about it, by one conditional UPDATE of its `checked_at` (the statement that used to follow
 * the check): of two servers' reconcilers reading the same batch, one claims an order and asks; the
 * other finds it checked just now and passes on, so an order is asked about and settled once per round.
 */
export async function reconcileOpenOrders(deps: AppDeps): Promise<ReconcileReport> {
  const gateway = paymentGatewayOf(deps);
  const now = deps.clock.now();
  const iso = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const { db } = deps;
  const { paymentOrders } = tablesOf(db);
  const due = () =>
    and(
      eq(paymentOrders.status, 'created'),
      lte(paymentOrders.createdAt, iso(SETTLE_AFTER_MS)),
      gte(paymentOrders.createdAt, iso(GIVE_UP_AFTER_MS)),
      or(isNull(paymentOrders.checkedAt), lte(paymentOrders.checkedAt, iso(RECHECK_EVERY_MS))),
    );
  const open = await runStatements(db, (db) =>
    rows(
      db
        .select({ id: paymentOrders.id })
        .from(paymentOrders)
        .where(due())
        .orderBy(asc(paymentOrders.createdAt))
        .limit(BATCH),
    ),
  );

  const report: ReconcileReport = { ordersChecked: 0, paymentsSettled: 0, refundsRetried: 0 };
  for (const order of open) {
    const claimed = await runStatements(db, (db) =>
      changes(
        db
          .update(paymentOrders)
          .set({ checkedAt: deps.clock.now().toISOString() })
          .where(and(eq(paymentOrders.id, order.id), due())),
      ),
    );
    if (claimed !== 1) continue;
    try {
      for (let payment of await gateway.fetchOrderPayments(order.id)) {
        if (payment.status === 'authorized') {
          payment = await gateway.capturePayment(payment.id, payment.amountPaise, payment.currency);
        }
        if (payment.status !== 'captured') continue;
        if (await settleGatewayPayment(deps, payment, 'reconciler')) report.paymentsSettled += 1;
      }
      report.ordersChecked += 1;
    } catch (err) {
      deps.logger.error({ err, orderId: order.id }, 'reconciler could not check an order');
    }
  }
  return report;
}
