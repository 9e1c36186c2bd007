import { createHash } from 'node:crypto';
import { and, eq, isNull, or } from 'drizzle-orm';
import { refunds, webhookEvents } from '../../db/schema/payments.ts';
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

  const seen = deps.db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).get();
  if (seen?.processedAt) return { status: 'duplicate' };
  if (!seen) {
    deps.db.insert(webhookEvents).values({ id: eventId, event, receivedAt: now }).onConflictDoNothing().run();
  }

  const handled = await dispatch(deps, event, body);
  // Marked only after it was handled: a delivery that failed half-way is processed again on retry.
  deps.db
    .update(webhookEvents)
    .set({ processedAt: deps.clock.now().toISOString() })
    .where(eq(webhookEvents.id, eventId))
    .run();
  return handled ? { status: 'processed', event } : { status: 'ignored', event };
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
      const changed = deps.db
        .update(refunds)
        .set({
          status: 'processed',
          gatewayRefundId: refund.id ?? null,
          updatedAt: deps.clock.now().toISOString(),
        })
        .where(eq(refunds.paymentId, refund.payment_id))
        .run();
      return changed.changes > 0;
    }
    case 'refund.failed': {
      // The bank returned our refund. The money is still the buyer's due, so the refund goes back to
      // pending and the reconciler issues a new one (it first checks what the gateway has refunded, so a
      // late or stale report can never refund twice). A report about an older, superseded refund is ignored.
      const refund = body.payload?.refund?.entity;
      if (!refund?.payment_id) return false;
      const part = await handleRefundPartWebhook(deps, 'refund.failed', refund);
      if (part !== null) return part;
      const changed = deps.db
        .update(refunds)
        .set({
          status: 'pending',
          lastError: `The gateway reported refund ${refund.id ?? ''} as failed`.trim(),
          nextAttemptAt: null,
          updatedAt: deps.clock.now().toISOString(),
        })
        .where(
          and(
            eq(refunds.paymentId, refund.payment_id),
            or(isNull(refunds.gatewayRefundId), eq(refunds.gatewayRefundId, refund.id ?? '')),
          ),
        )
        .run();
      return changed.changes > 0;
    }
    default:
      // payment.failed and the rest: the buyer may still retry in the open window; the browser, the
      // sweeper and the reconciler decide what happens to the hold.
      return false;
  }
}
