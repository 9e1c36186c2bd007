import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, isNull, or } from 'drizzle-orm';
import { runStatements } from '../../db/engine/reads.ts';
import { changes, row } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { refunds } from '../../db/schema/payments.ts';
import type { AppDeps } from '../../deps.ts';
import { handleRefundPartWebhook } from '../partial-refunds/issue-refund-part.ts';
import { markRefundProcessed } from '../refunds/issue-refund.ts';
import { settleGatewayPayment } from './confirm.ts';
import { paymentGatewayOf } from './gateway-of.ts';

export type WebhookResult =
  | { status: 'rejected' }
  | { status: 'duplicate' }
  | { status: 'ignored'; event: string }
  | { status: 'processed'; event: string };

interface RazorpayWebhook {
  event?: string;
  payload?: {
    payment?: { entity?: PaymentEntity };
    order?: { entity?: { id?: string } };
    refund?: {
      entity?: {
        id?: string;
        payment_id?: string;
        status?: string;
        notes?: Record<string, unknown> | unknown[];
      };
    };
  };
}
interface PaymentEntity {
  id: string;
  order_id?: string | null;
  amount: number;
  currency: string;
  status: string;
}

/**
 * One webhook delivery (POST /api/webhooks/razorpay). The signature is checked on the raw body in
 * constant time; deliveries are deduplicated by the gateway's event id; and every event leads to the
 * same idempotent settlement, so the order in which they arrive does not matter.
 */
export async function handleWebhook(
  deps: AppDeps,
  rawBody: string,
  signature: string | undefined,
  eventIdHeader: string | undefined,
): Promise<WebhookResult> {
  const gateway = paymentGatewayOf(deps);
  if (!signature || !gateway.verifyWebhookSignature(rawBody, signature)) return { status: 'rejected' };
  let body: RazorpayWebhook;
  try {
    body = JSON.parse(rawBody) as RazorpayWebhook;
  } catch {
    return { status: 'rejected' };
  }
  const event = body.event ?? 'unknown';
  const eventId = eventIdHeader || `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  const now = deps.clock.now().toISOString();

  const claim = await claimDelivery(deps, eventId, event, now);
  if (claim !== 'ours') return { status: claim };

  let handled: boolean;
  try {
    handled = await dispatch(deps, event, body);
  } catch (error) {
    // Not handled: the claim goes, so the gateway's retry (our 500 asks for one) handles it again.
    await runStatements(deps.db, (db) => {
      const { webhookEvents } = tablesOf(db);
      return changes(
        db.delete(webhookEvents).where(and(eq(webhookEvents.id, eventId), isNull(webhookEvents.processedAt))),
      );
    });
    throw error;
  }
  // Marked only after it was handled: a delivery that failed half-way is processed again on retry.
  await runStatements(deps.db, (db) => {
    const { webhookEvents } = tablesOf(db);
    return changes(
      db
        .update(webhookEvents)
        .set({ processedAt: deps.clock.now().toISOString() })
        .where(eq(webhookEvents.id, eventId)),
    );
  });
  return handled ? { status: 'processed', event } : { status: 'ignored', event };
}

/**
 * How long a delivery waits for another one of the same event, claimed but not yet processed, before
 * taking it over: long enough for a handler in flight on another server (a settlement, a capture) to
 * finish, short enough that a retry after a crash half-way does not wait long for the dead claim.
 */
export const WEBHOOK_WAIT_MS = 5_000;
const WEBHOOK_POLL_MS = 20;

/**
 * Whether this delivery is the one to act on, on either engine. The event's row is inserted with ON
 * CONFLICT DO NOTHING on its primary key, so of two servers given the same event at once exactly one
 * inserts it and acts (one statement on the usual path). Another delivery of it answers 'duplicate'
 * once it is processed; while it is not, it waits for it. A claim still unprocessed after
 * WEBHOOK_WAIT_MS (its server died half-way, or is very slow) is taken over by one conditional UPDATE
 * on the claim's time, so one waiting delivery acts again: the settlement it leads to is idempotent,
 * which is also what makes a slow first handler and its taker both acting harmless. A claim whose
 * handler failed is deleted (`handleWebhook`), and a waiting delivery then claims it anew.
 */
async function claimDelivery(
  deps: AppDeps,
  eventId: string,
  event: string,
  now: string,
): Promise<'ours' | 'duplicate'> {
  let waitingOn: string | undefined;
  let deadline = 0;
  for (;;) {
    const claim = await runStatements(deps.db, function* (db) {
      const { webhookEvents } = tablesOf(db);
      const inserted = yield* changes(
        db.insert(webhookEvents).values({ id: eventId, event, receivedAt: now }).onConflictDoNothing(),
      );
      if (inserted === 1) return 'ours';
      const seen = yield* row(
        db
          .select({ processedAt: webhookEvents.processedAt, receivedAt: webhookEvents.receivedAt })
          .from(webhookEvents)
          .where(eq(webhookEvents.id, eventId)),
      );
      if (!seen) return 'again'; // its handler failed and let it go
      if (seen.processedAt) return 'duplicate';
      if (seen.receivedAt !== waitingOn) {
        // A claim not seen before (the first, or one taken over since): its handler gets the full wait.
        waitingOn = seen.receivedAt;
        deadline = Date.now() + WEBHOOK_WAIT_MS;
      }
      if (Date.now() < deadline) return 'wait';
      const takenOver = yield* changes(
        db
          .update(webhookEvents)
          // Another time than the one seen, so a second taker's UPDATE (waiting on this one's row lock
          // on PostgreSQL) finds the claim moved and changes nothing.
          .set({ receivedAt: new Date(Math.max(Date.now(), Date.parse(seen.receivedAt) + 1)).toISOString() })
          .where(
            and(
              eq(webhookEvents.id, eventId),
              isNull(webhookEvents.processedAt),
              eq(webhookEvents.receivedAt, seen.receivedAt),
            ),
          ),
      );
      return takenOver === 1 ? 'ours' : 'wait';
    });
    if (claim === 'ours' || claim === 'duplicate') return claim;
    if (claim === 'wait') await sleep(WEBHOOK_POLL_MS);
  }
}

async function dispatch(deps: AppDeps, event: string, body: RazorpayWebhook): Promise<boolean> {
  const payment = body.payload?.payment?.entity;
  switch (event) {
    case 'payment.captured':
    case 'order.paid': {
      if (!payment?.order_id || payment.status !== 'captured') return false;
      const outcome = await settleGatewayPayment(
        deps,
        {
          id: payment.id,
          orderId: payment.order_id,
          amountPaise: payment.amount,
          currency: payment.currency,
        },
        'webhook',
      );
      return outcome !== null;
    }
    case 'payment.authorized': {
      // Accounts without automatic capture: capture now, then settle like any captured payment.
      if (!payment?.order_id) return false;
      const captured = await paymentGatewayOf(deps).capturePayment(
        payment.id,
        payment.amount,
        payment.currency,
      );
      if (captured.status !== 'captured') return false;
      return (await settleGatewayPayment(deps, captured, 'webhook')) !== null;
    }
    case 'refund.processed': {
      const refund = body.payload?.refund?.entity;
      if (!refund?.payment_id) return false;
      // A part refund's report is about that part, never the payment's whole refund (ADR 0043).
      const part = await handleRefundPartWebhook(deps, 'refund.processed', refund);
      if (part !== null) return part;
      // A pending refund the gateway finished (its answer to us was lost): done, and the buyer is mailed.
      if (await markRefundProcessed(deps, eq(refunds.paymentId, refund.payment_id), refund.id ?? null)) {
        return true;
      }
      const paymentId = refund.payment_id;
      const changed = await runStatements(deps.db, (db) => {
        const { refunds } = tablesOf(db);
        return changes(
          db
            .update(refunds)
            .set({
              status: 'processed',
              gatewayRefundId: refund.id ?? null,
              updatedAt: deps.clock.now().toISOString(),
            })
            .where(eq(refunds.paymentId, paymentId)),
        );
      });
      return changed > 0;
    }
    case 'refund.failed': {
      // The bank returned our refund. The money is still the buyer's due, so the refund goes back to
      // pending and the reconciler issues a new one (it first checks what the gateway has refunded, so a
      // late or stale report can never refund twice). A report about an older, superseded refund is ignored.
      const refund = body.payload?.refund?.entity;
      if (!refund?.payment_id) return false;
      const part = await handleRefundPartWebhook(deps, 'refund.failed', refund);
      if (part !== null) return part;
      const paymentId = refund.payment_id;
      const changed = await runStatements(deps.db, (db) => {
        const { refunds } = tablesOf(db);
        return changes(
          db
            .update(refunds)
            .set({
              status: 'pending',
              lastError: `The gateway reported refund ${refund.id ?? ''} as failed`.trim(),
              nextAttemptAt: null,
              updatedAt: deps.clock.now().toISOString(),
            })
            .where(
              and(
                eq(refunds.paymentId, paymentId),
                or(isNull(refunds.gatewayRefundId), eq(refunds.gatewayRefundId, refund.id ?? '')),
              ),
            ),
        );
      });
      return changed > 0;
    }
    default:
      // payment.failed and the rest: the buyer may still retry in the open window; the browser, the
      // sweeper and the reconciler decide what happens to the hold.
      return false;
  }
}
