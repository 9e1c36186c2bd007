/**
 * One protocol, two implementations (integrations/razorpay and integrations/simulator): create an
 * order, let the buyer pay in a checkout window, verify the signed result, fetch, capture and refund
 * payments, verify webhooks. Amounts are integer paise.
 */
export interface PaymentGateway {
  readonly name: 'razorpay' | 'simulator';
  /** Public key the checkout window is opened with. */
  readonly keyId: string;
  createOrder(input: CreateOrderInput): Promise<GatewayOrder>;
  fetchPayment(paymentId: string): Promise<GatewayPayment>;
  fetchOrderPayments(orderId: string): Promise<GatewayPayment[]>;
  capturePayment(paymentId: string, amountPaise: number, currency: string): Promise<GatewayPayment>;
  /**
   * Refunds part or all of a captured payment. The same `idempotencyKey` with the same request never
   * refunds twice (Razorpay's `X-Refund-Idempotency`), so a retry after a lost answer is safe.
   */
  refundPayment(
    paymentId: string,
    amountPaise: number,
    notes: Record<string, string>,
    options?: { idempotencyKey?: string },
  ): Promise<GatewayRefund>;
  /** Checks a checkout result's signature over `orderId|paymentId`, in constant time. */
  verifyPaymentSignature(result: { orderId: string; paymentId: string; signature: string }): boolean;
  /** Checks a webhook's `X-Razorpay-Signature` over the raw body, in constant time. */
  verifyWebhookSignature(rawBody: string, signature: string): boolean;
}

export interface CreateOrderInput {
  amountPaise: number;
  currency: 'INR';
  receipt: string;
  notes: Record<string, string>;
}

export interface GatewayOrder {
  id: string;
  amountPaise: number;
  currency: string;
  receipt: string;
  status: string;
}

export type GatewayPaymentStatus = 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';

export interface GatewayPayment {
  id: string;
  orderId: string;
  amountPaise: number;
  currency: string;
  status: GatewayPaymentStatus;
  amountRefundedPaise: number;
  errorDescription: string | null;
}

export interface GatewayRefund {
  id: string;
  paymentId: string;
  amountPaise: number;
  status: string;
}

/** A gateway call that failed: `api` when the gateway answered with an error, `network` when it never answered. */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly kind: 'api' | 'network',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}
