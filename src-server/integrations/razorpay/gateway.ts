import Razorpay from 'razorpay';
import {
  type CreateOrderInput,
  GatewayError,
  type GatewayOrder,
  type GatewayPayment,
  type GatewayPaymentStatus,
  type GatewayRefund,
  type PaymentGateway,
} from '../../services/payments/gateway.ts';
import { verifyHmacSha256Hex, verifyPaymentSignature } from '../../services/payments/signatures.ts';

export interface RazorpayKeys {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
}

/**
 * How long one Razorpay call may take before it counts as a network failure. The SDK sets no time-out
 * of its own, so without one a Razorpay that never answers would keep the buyer's Proceed (and the
 * seats it holds) or a refund waiting indefinitely.
 */
export const RAZORPAY_TIMEOUT_MS = 15_000;

/** The real gateway, through the official `razorpay` SDK (https://api.razorpay.com/v1). */
export function createRazorpayGateway(
  keys: RazorpayKeys,
  options: { timeoutMs?: number } = {},
): PaymentGateway {
  const client = new Razorpay({ key_id: keys.keyId, key_secret: keys.keySecret });
  const call = <T>(fn: () => Promise<T>) => callRazorpay(fn, options.timeoutMs ?? RAZORPAY_TIMEOUT_MS);

  return {
    name: 'razorpay',
    keyId: keys.keyId,

    async createOrder(input: CreateOrderInput): Promise<GatewayOrder> {
      const order = await call(() =>
        client.orders.create({
          amount: input.amountPaise,
          currency: input.currency,
          receipt: input.receipt,
          notes: input.notes,
        }),
      );
      return {
        id: order.id,
        amountPaise: Number(order.amount),
        currency: order.currency,
        receipt: order.receipt ?? input.receipt,
        status: order.status,
      };
    },

    async fetchPayment(paymentId) {
      return toPayment(await call(() => client.payments.fetch(paymentId)));
    },

    async fetchOrderPayments(orderId) {
      const list = await call(() => client.orders.fetchPayments(orderId));
      return list.items.map(toPayment);
    },

    async capturePayment(paymentId, amountPaise, currency) {
      return toPayment(await call(() => client.payments.capture(paymentId, amountPaise, currency)));
    },

    async refundPayment(paymentId, amountPaise, notes, options = {}): Promise<GatewayRefund> {
      const body = { amount: amountPaise, notes };
      const refund = await call(() =>
        options.idempotencyKey
          ? idempotentRefund(keys, paymentId, body, options.idempotencyKey)
          : client.payments.refund(paymentId, body),
      );
      return {
        id: refund.id,
        paymentId: refund.payment_id,
        amountPaise: Number(refund.amount),
        status: refund.status,
      };
    },

    verifyPaymentSignature: (result) => verifyPaymentSignature(keys.keySecret, result),
    verifyWebhookSignature: (rawBody, signature) =>
      verifyHmacSha256Hex(keys.webhookSecret, rawBody, signature),
  };
}

const RAZORPAY_API = 'https://api.razorpay.com/v1';

interface RazorpayRefundLike {
  id: string;
  payment_id: string;
  amount?: number | string;
  status: string;
}

/**
 * Razorpay's idempotent refund (`X-Refund-Idempotency`: the same key and body never refund twice). The
 * SDK drops headers it does not know, so this one call is made directly; failures take the SDK's shape
 * (`{ statusCode, error }`) so callRazorpay reads them the same way.
 */
async function idempotentRefund(
  keys: RazorpayKeys,
  paymentId: string,
  body: { amount: number; notes: Record<string, string> },
  idempotencyKey: string,
): Promise<RazorpayRefundLike> {
  const res = await fetch(`${RAZORPAY_API}/payments/${encodeURIComponent(paymentId)}/refund`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${keys.keyId}:${keys.keySecret}`).toString('base64')}`,
      'content-type': 'application/json',
      'x-refund-idempotency': idempotencyKey,
    },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => ({}))) as RazorpayRefundLike & {
    error?: { description?: string };
  };
  if (!res.ok) throw { statusCode: res.status, error: answer.error ?? {} };
  return answer;
}

interface RazorpayPaymentLike {
  id: string;
  order_id?: string | null;
  amount: number | string;
  currency: string;
  status: string;
  amount_refunded?: number | string | null;
  error_description?: string | null;
}

export function toPayment(p: RazorpayPaymentLike): GatewayPayment {
  return {
    id: p.id,
    orderId: p.order_id ?? '',
    amountPaise: Number(p.amount),
    currency: p.currency,
    status: p.status as GatewayPaymentStatus,
    amountRefundedPaise: Number(p.amount_refunded ?? 0),
    errorDescription: p.error_description ?? null,
  };
}

/**
 * The SDK rejects with `{ statusCode, error: { description } }` when Razorpay answers with an error,
 * and with whatever axios threw (it has no response to normalise) when the network fails. No answer
 * within `timeoutMs` is a network failure too: callers treat it as "may or may not have happened"
 * (an order is abandoned, a refund is checked before it is retried).
 */
async function callRazorpay<T>(fn: () => Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new GatewayError(`Razorpay did not answer within ${timeoutMs} ms`, 'network')),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([fn(), timeout]);
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    const e = err as { statusCode?: number; error?: { description?: string } } | null;
    if (e && typeof e.statusCode === 'number') {
      throw new GatewayError(
        e.error?.description ?? `Razorpay answered ${e.statusCode}`,
        'api',
        e.statusCode,
      );
    }
    throw new GatewayError(
      `Razorpay could not be reached: ${(err as Error)?.message ?? String(err)}`,
      'network',
    );
  } finally {
    clearTimeout(timer);
  }
}
