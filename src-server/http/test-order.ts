import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env.ts';
import type { AppDeps } from '../deps.ts';
import { paymentGatewayOf } from '../services/payments/gateway-of.ts';
import { type RateLimit, takeRateLimited } from '../services/rate-limits/rate-limits.ts';
import { clientAddress } from './client-address.ts';
import { requestLogger } from './request-context.ts';

const bodySchema = z.object({
  amount: z.number().int().min(100).max(10_000_000),
  currency: z.literal('INR'),
});

/**
 * Anonymous, and each order is a row here (and a call to Razorpay's API where configured): a client
 * gets a few per quarter hour, enough to try the test page.
 */
export const TEST_ORDERS_PER_CLIENT: RateLimit = {
  name: 'test-order/client',
  max: 10,
  windowMs: 15 * 60_000,
};

/**
 * POST /api/create-order for the /temp-checkout test page (spec §7 'Test page order service', served
 * by the app itself instead of a separate port-8000 service). With real Razorpay keys in production it
 * is switched off: a public endpoint should not open live orders.
 */
export function mountTestOrder(app: Hono<AppEnv>, deps: AppDeps) {
  app.post('/api/create-order', async (c) => {
    const gateway = paymentGatewayOf(deps);
    if (deps.env.NODE_ENV === 'production' && gateway.name === 'razorpay') {
      return c.json({ error: { message: 'Not found' } }, 404);
    }
    const parsed = bodySchema.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ error: { message: 'amount and currency are required' } }, 400);
    const counted = [{ limit: TEST_ORDERS_PER_CLIENT, key: clientAddress(c, deps.env.TRUST_PROXY) }];
    if (!(await takeRateLimited(deps.db, counted, deps.clock.now()))) {
      return c.json({ error: { message: 'Too many test orders. Please try again later' } }, 429);
    }
    try {
      const order = await gateway.createOrder({
        amountPaise: parsed.data.amount,
        currency: 'INR',
        receipt: `test_${deps.clock.now().getTime()}`,
        notes: { purpose: 'temp-checkout' },
      });
      return c.json({
        order_id: order.id,
        amount: order.amountPaise,
        currency: order.currency,
        key_id: gateway.keyId,
      });
    } catch (err) {
      requestLogger(c).error({ err }, 'test order could not be created');
      return c.json({ error: { message: 'Failed to create order. Please try again.' } }, 502);
    }
  });
}
