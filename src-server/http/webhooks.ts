import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { handleWebhook } from '../services/payments/webhook-events.ts';
import { requestLogger } from './request-context.ts';

/**
 * POST /api/webhooks/razorpay. Razorpay (or the simulator) signs the raw body with the webhook secret;
 * anything else is refused with 400 before the body is looked at. A 2xx tells the sender not to retry,
 * so a handling error answers 500 and the delivery comes again.
 */
export function mountPaymentWebhooks(app: Hono<AppEnv>, deps: AppDeps) {
  app.post('/api/webhooks/razorpay', async (c) => {
    const rawBody = await c.req.text();
    const result = await handleWebhook(
      deps,
      rawBody,
      c.req.header('x-razorpay-signature'),
      c.req.header('x-razorpay-event-id'),
    );
    if (result.status === 'rejected') {
      requestLogger(c).warn('webhook with a missing or invalid signature refused');
      return c.json({ error: { message: 'Invalid signature' } }, 400);
    }
    return c.json(result);
  });
}
