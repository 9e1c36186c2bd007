import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../app-env.ts';
import type { AppDeps } from '../../deps.ts';
import { GatewayError } from '../../services/payments/gateway.ts';
import { hmacSha256Hex } from '../../services/payments/signatures.ts';
import {
  findSimulatorOrder,
  OrderAlreadyPaidError,
  simulateFailure,
  simulatePayment,
  simulatorPaymentEntity,
  simulatorSecrets,
} from './gateway.ts';

/** Webhook deliveries still in flight per app, so tests can wait for them. */
const inFlight = new WeakMap<AppDeps, Set<Promise<void>>>();

/** Resolves once every webhook the simulator has scheduled so far was delivered. */
export async function simulatorWebhooksDelivered(deps: AppDeps): Promise<void> {
  const pending = inFlight.get(deps);
  while (pending && pending.size > 0) await Promise.all([...pending]);
}

const failSchema = z.object({ description: z.string().trim().min(1).max(200) });

/**
 * The buyer's side of the offline gateway, called by the checkout's simulator dialog: Pay returns a
 * signed result exactly like Razorpay's checkout; Fail returns Razorpay's error object. Both then send
 * the matching signed webhooks to this app's own webhook endpoint, as Razorpay would. Either on an order
 * already paid answers 400 with Razorpay's error object for it (`reason: 'order_already_paid'`). The routes exist
 * only while the simulator is the app's gateway (compose-deps.ts chooses Razorpay once it is configured):
 * a site taking real money has no use for a Pay button that costs nothing, whatever its orders table
 * still holds from before.
 */
export function mountSimulator(app: Hono<AppEnv>, deps: AppDeps) {
  if (deps.paymentGateway?.name !== 'simulator') return;
  app.get('/api/simulator/orders/:orderId', async (c) => {
    const order = await findSimulatorOrder(deps.db, c.req.param('orderId'));
    if (!order) return c.json({ error: { message: 'The id provided does not exist' } }, 404);
    return c.json({
      id: order.id,
      amount: order.amountPaise,
      currency: order.currency,
      status: order.status,
    });
  });

  app.post('/api/simulator/orders/:orderId/pay', async (c) => {
    try {
      const result = await simulatePayment(deps, c.req.param('orderId'));
      const payment = await simulatorPaymentEntity(deps.db, result.razorpay_payment_id);
      sendWebhooks(app, deps, [
        { event: 'payment.captured', payload: { payment: { entity: payment } } },
        {
          event: 'order.paid',
          payload: { payment: { entity: payment }, order: { entity: { id: payment.order_id } } },
        },
      ]);
      return c.json(result);
    } catch (err) {
      if (err instanceof OrderAlreadyPaidError) return c.json({ error: err.razorpayError }, 400);
      if (err instanceof GatewayError) return c.json({ error: { message: err.message } }, 404);
      throw err;
    }
  });

  app.post('/api/simulator/orders/:orderId/fail', async (c) => {
    const parsed = failSchema.safeParse(await c.req.json().catch(() => ({})));
    const description = parsed.success ? parsed.data.description : 'Payment declined by the bank';
    try {
      const error = await simulateFailure(deps, c.req.param('orderId'), description);
      const payment = await simulatorPaymentEntity(deps.db, error.metadata.payment_id);
      sendWebhooks(app, deps, [{ event: 'payment.failed', payload: { payment: { entity: payment } } }]);
      return c.json({ error });
    } catch (err) {
      if (err instanceof OrderAlreadyPaidError) return c.json({ error: err.razorpayError }, 400);
      if (err instanceof GatewayError) return c.json({ error: { message: err.message } }, 404);
      throw err;
    }
  });
}

/** Signs and posts each event to /api/webhooks/razorpay after the buyer's answer, one after another. */
function sendWebhooks(app: Hono<AppEnv>, deps: AppDeps, events: { event: string; payload: unknown }[]) {
  const { webhookSecret } = simulatorSecrets(deps.appSecret);
  let pending = inFlight.get(deps);
  if (!pending) {
    pending = new Set();
    inFlight.set(deps, pending);
  }
  const set = pending;
  const delivery = (async () => {
    // Let the browser's callback usually arrive first, as it does with the real gateway.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const { event, payload } of events) {
      const body = JSON.stringify({
        entity: 'event',
        account_id: 'acc_jalsasimulator',
        event,
        contains: Object.keys(payload as object),
        payload,
        created_at: Math.floor(deps.clock.now().getTime() / 1000),
      });
      try {
        const res = await app.request('/api/webhooks/razorpay', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-razorpay-signature': hmacSha256Hex(webhookSecret, body),
            'x-razorpay-event-id': `evt_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
          },
          body,
        });
        if (!res.ok) deps.logger.warn({ event, status: res.status }, 'simulator webhook was not accepted');
      } catch (err) {
        deps.logger.error({ err, event }, 'simulator webhook delivery failed');
      }
    }
  })();
  set.add(delivery);
  void delivery.finally(() => set.delete(delivery));
}
