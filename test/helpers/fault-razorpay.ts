import { createHmac, randomBytes } from 'node:crypto';
import { delay, HttpResponse, http } from 'msw';

const API = 'https://api.razorpay.com/v1';

/** Keys a test configures Razorpay with (RAZORPAY_* or createRazorpayGateway). */
export const FAKE_RAZORPAY_KEYS = {
  keyId: 'rzp_test_faults',
  keySecret: 'fault_key_secret',
  webhookSecret: 'fault_webhook_secret',
};

/**
 * What a call meets:
 * - `network`: the connection fails, nothing happens at Razorpay;
 * - `server-error`: Razorpay answers 500, nothing happens;
 * - `slow`: no answer until the test ends (the adapter's time-out decides), nothing happens;
 * - `lost-answer`: Razorpay does it (creates the order, refunds the money...) but the answer is lost.
 */
export type RazorpayFault = 'network' | 'server-error' | 'slow' | 'lost-answer';
export type RazorpayRoute = 'create-order' | 'order-payments' | 'fetch-payment' | 'capture' | 'refund';

interface FakePayment {
  id: string;
  entity: 'payment';
  order_id: string;
  amount: number;
  currency: string;
  status: 'authorized' | 'captured' | 'refunded';
  amount_refunded: number;
  captured: boolean;
  error_description: null;
}

/**
 * A stateful stand-in for the parts of api.razorpay.com the adapter uses, for msw. It keeps orders,
 * payments and refunds like Razorpay does (refusing to refund more than was paid), records every call,
 * and applies faults queued per route.
 */
export function createFakeRazorpay() {
  const orders = new Map<string, { id: string; amount: number; currency: string; receipt: string }>();
  const payments = new Map<string, FakePayment>();
  const refunds: { id: string; payment_id: string; amount: number }[] = [];
  const calls: { route: RazorpayRoute; fault: RazorpayFault | null }[] = [];
  const queued = new Map<RazorpayRoute, RazorpayFault[]>();
  const down = new Map<RazorpayRoute, RazorpayFault>();
  const slow: (() => void)[] = [];

  /** Runs one call through the faults: `act` happens unless the fault stops it before Razorpay. */
  async function answer(route: RazorpayRoute, act: () => Response): Promise<Response> {
    const fault = queued.get(route)?.shift() ?? down.get(route) ?? null;
    calls.push({ route, fault });
    if (fault === 'network') return HttpResponse.error();
    if (fault === 'server-error') {
      return HttpResponse.json(
        { error: { code: 'SERVER_ERROR', description: 'The server encountered an error.' } },
        { status: 500 },
      );
    }
    if (fault === 'slow') {
      await Promise.race([new Promise<void>((resolve) => slow.push(resolve)), delay(60_000)]);
      return HttpResponse.error();
    }
    const response = act();
    return fault === 'lost-answer' ? HttpResponse.error() : response;
  }

  const notFound = () =>
    HttpResponse.json(
      { error: { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist' } },
      { status: 400 },
    );

  const handlers = [
    http.post(`${API}/orders`, async ({ request }) => {
      const body = (await request.json()) as { amount: number; currency: string; receipt: string };
      return answer('create-order', () => {
        const order = {
          id: id('order'),
          amount: body.amount,
          currency: body.currency,
          receipt: body.receipt,
        };
        orders.set(order.id, order);
        return HttpResponse.json({ ...order, entity: 'order', status: 'created' });
      });
    }),
    http.get(`${API}/orders/:orderId/payments`, ({ params }) =>
      answer('order-payments', () => {
        const items = [...payments.values()].filter((p) => p.order_id === params.orderId);
        return HttpResponse.json({ entity: 'collection', count: items.length, items });
      }),
    ),
    http.get(`${API}/payments/:paymentId`, ({ params }) =>
      answer('fetch-payment', () => {
        const payment = payments.get(String(params.paymentId));
        return payment ? HttpResponse.json(payment) : notFound();
      }),
    ),
    http.post(`${API}/payments/:paymentId/capture`, ({ params }) =>
      answer('capture', () => {
        const payment = payments.get(String(params.paymentId));
        if (!payment) return notFound();
        payment.status = 'captured';
        payment.captured = true;
        return HttpResponse.json(payment);
      }),
    ),
    http.post(`${API}/payments/:paymentId/refund`, async ({ params, request }) => {
      const body = (await request.json()) as { amount: number };
      return answer('refund', () => {
        const payment = payments.get(String(params.paymentId));
        if (!payment) return notFound();
        if (payment.amount_refunded + body.amount > payment.amount) {
          return HttpResponse.json(
            {
              error: {
                code: 'BAD_REQUEST_ERROR',
                description: 'The total refund amount is greater than the refund payment amount',
              },
            },
            { status: 400 },
          );
        }
        const refund = { id: id('rfnd'), payment_id: payment.id, amount: body.amount };
        refunds.push(refund);
        payment.amount_refunded += body.amount;
        if (payment.amount_refunded === payment.amount) payment.status = 'refunded';
        return HttpResponse.json({ ...refund, entity: 'refund', status: 'processed' });
      });
    }),
  ];

  return {
    handlers,
    orders,
    payments,
    refunds,
    calls,
    /** The next calls on `route` meet these faults, one each. */
    fail(route: RazorpayRoute, ...faults: RazorpayFault[]) {
      queued.set(route, [...(queued.get(route) ?? []), ...faults]);
    },
    /** Every call on `route` meets `fault` until `up(route)`. */
    down(route: RazorpayRoute, fault: RazorpayFault) {
      down.set(route, fault);
    },
    up(route: RazorpayRoute) {
      down.delete(route);
    },
    /** Ends every slow call (for afterEach). */
    releaseSlowCalls() {
      for (const resolve of slow.splice(0)) resolve();
    },
    /**
     * The buyer pays in Razorpay's window: a captured (or, without auto-capture, authorized) payment and
     * the signed result the window hands to the browser.
     */
    pay(orderId: string, status: 'captured' | 'authorized' = 'captured') {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId} at the fake Razorpay`);
      const payment: FakePayment = {
        id: id('pay'),
        entity: 'payment',
        order_id: orderId,
        amount: order.amount,
        currency: order.currency,
        status,
        amount_refunded: 0,
        captured: status === 'captured',
        error_description: null,
      };
      payments.set(payment.id, payment);
      const signature = createHmac('sha256', FAKE_RAZORPAY_KEYS.keySecret)
        .update(`${orderId}|${payment.id}`)
        .digest('hex');
      return { orderId, paymentId: payment.id, signature, payment };
    },
    /** A webhook body signed with the webhook secret, as Razorpay posts it. */
    signedWebhook(event: string, payload: object) {
      const body = JSON.stringify({ entity: 'event', event, contains: Object.keys(payload), payload });
      return {
        body,
        signature: createHmac('sha256', FAKE_RAZORPAY_KEYS.webhookSecret).update(body).digest('hex'),
      };
    },
  };
}

export type FakeRazorpay = ReturnType<typeof createFakeRazorpay>;

function id(prefix: string): string {
  return `${prefix}_${randomBytes(7).toString('hex')}`;
}
