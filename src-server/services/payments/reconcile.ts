import { and, asc, eq, gte, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
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
/**
 * How often a settled (paid or refunded) order is asked about again while younger than GIVE_UP_AFTER_MS:
 * a few times in all, since a second captured payment on it is rare (Razorpay's late UPI success on a
 * paid order) and its webhook being lost as well rarer still. Each look is one gateway call per order.
 */
const SETTLED_RECHECK_EVERY_MS = 6 * 60 * 60 * 1000;
const BATCH = 50;

export interface ReconcileReport {
  ordersChecked: number;
  paymentsSettled: number;
  refundsRetried: number;
  /** Paid or refunded orders whose captured payments were checked all to be accounted for. */
  settledOrdersChecked: number;
}

/**
 * The reconciler: asks the gateway about orders still open (a callback and a webhook may both have
 * been lost) and settles any captured payment through the same idempotent confirmation; asks likewise
 * about recently settled orders, for a second captured payment nothing reported; then retries refunds
 * the gateway has not accepted yet.
 */
export async function reconcilePayments(deps: AppDeps): Promise<ReconcileReport> {
  const report = await reconcileOpenOrders(deps);
  // Refunds are the refund job's (services/refunds); the reconciler gives it a turn as well.
  report.refundsRetried = await runDueRefunds(deps);
  return report;
}

/**
 * The orders' half of the reconciler, on either engine. Each order is claimed before the gateway is
 * asked about it, by one conditional UPDATE of its `checked_at` (the statement that used to follow the
 * check): of two servers' reconcilers reading the same batch, one claims an order and asks; the other
 * finds it checked just now and passes on, so an order is asked about and settled once per round.
 *
 * Open orders (`created`): every captured payment is settled, as the webhook would have. Settled orders
 * (`paid`, `refunded`): a captured payment that is neither a booking's nor refunded (its webhook lost, and
 * the order confirmed by another payment) goes through the same settlement, which refunds it as a
 * duplicate payment; without this look the money would stay taken with no booking and no refund.
 */
export async function reconcileOpenOrders(deps: AppDeps): Promise<ReconcileReport> {
  const gateway = paymentGatewayOf(deps);
  const now = deps.clock.now();
  const iso = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const { paymentOrders } = tablesOf(deps.db);
  const young = () =>
    and(
      lte(paymentOrders.createdAt, iso(SETTLE_AFTER_MS)),
      gte(paymentOrders.createdAt, iso(GIVE_UP_AFTER_MS)),
    );
  const checkedBefore = (ms: number) =>
    or(isNull(paymentOrders.checkedAt), lte(paymentOrders.checkedAt, iso(ms)));
  const open = () => and(eq(paymentOrders.status, 'created'), young(), checkedBefore(RECHECK_EVERY_MS));
  const settled = () =>
    and(
      inArray(paymentOrders.status, ['paid', 'refunded']),
      young(),
      checkedBefore(SETTLED_RECHECK_EVERY_MS),
    );

  const report: ReconcileReport = {
    ordersChecked: 0,
    paymentsSettled: 0,
    refundsRetried: 0,
    settledOrdersChecked: 0,
  };
  for await (const orderId of claimEach(deps, open)) {
    try {
      for (let payment of await gateway.fetchOrderPayments(orderId)) {
        if (payment.status === 'authorized') {
          payment = await gateway.capturePayment(payment.id, payment.amountPaise, payment.currency);
        }
        if (payment.status !== 'captured') continue;
        if (await settleGatewayPayment(deps, payment, 'reconciler')) report.paymentsSettled += 1;
      }
      report.ordersChecked += 1;
    } catch (err) {
      deps.logger.error({ err, orderId }, 'reconciler could not check an order');
    }
  }
  for await (const orderId of claimEach(deps, settled)) {
    try {
      const captured = (await gateway.fetchOrderPayments(orderId)).filter((p) => p.status === 'captured');
      // An authorized payment is left alone: the gateway gives it back itself unless it is captured.
      for (const payment of await unaccountedFor(deps, captured)) {
        deps.logger.warn(
          { orderId, paymentId: payment.id },
          'reconciler found a captured payment nothing reported on a settled order',
        );
        if (await settleGatewayPayment(deps, payment, 'reconciler')) report.paymentsSettled += 1;
      }
      report.settledOrdersChecked += 1;
    } catch (err) {
      deps.logger.error({ err, orderId }, 'reconciler could not check a settled order');
    }
  }
  return report;
}

/**
 * The due orders of one kind, oldest first and at most a batch, each yielded once this reconciler has
 * claimed it (a conditional UPDATE of `checked_at` under the same condition).
 */
async function* claimEach(deps: AppDeps, due: () => SQL | undefined): AsyncGenerator<string> {
  const { db } = deps;
  const { paymentOrders } = tablesOf(db);
  const found = await runStatements(db, (db) =>
    rows(
      db
        .select({ id: paymentOrders.id })
        .from(paymentOrders)
        .where(due())
        .orderBy(asc(paymentOrders.createdAt))
        .limit(BATCH),
    ),
  );
  for (const order of found) {
    const claimed = await runStatements(db, (db) =>
      changes(
        db
          .update(paymentOrders)
          .set({ checkedAt: deps.clock.now().toISOString() })
          .where(and(eq(paymentOrders.id, order.id), due())),
      ),
    );
    if (claimed === 1) yield order.id;
  }
}

/** The payments that are neither a booking's payment nor refunded (both looked up by their unique payment id). */
async function unaccountedFor<P extends { id: string }>(deps: AppDeps, payments: P[]): Promise<P[]> {
  if (payments.length === 0) return [];
  const ids = payments.map((p) => p.id);
  const accounted = await runStatements(deps.db, function* (db) {
    const { bookings, refunds } = tablesOf(db);
    const booked = yield* rows(
      db.select({ id: bookings.paymentId }).from(bookings).where(inArray(bookings.paymentId, ids)),
    );
    const refunded = yield* rows(
      db.select({ id: refunds.paymentId }).from(refunds).where(inArray(refunds.paymentId, ids)),
    );
    return new Set([...booked, ...refunded].map((r) => r.id));
  });
  return payments.filter((p) => !accounted.has(p.id));
}
