import { createHash } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { isPostgres, runStatements } from '../../db/engine/reads.ts';
import { runnerFor } from '../../db/engine/runner.ts';
import { changes, row, rows } from '../../db/engine/steps.ts';
import { tablesOf } from '../../db/engine/tables.ts';
import { groupCommitOf } from '../../db/group-commit.ts';
import { simulatorOrders, type simulatorPayments } from '../../db/schema/payments.ts';
import type { Clock } from '../../deps.ts';
import { pooledRandomBytes } from '../../pooled-random.ts';
import { GatewayError, type GatewayPayment, type PaymentGateway } from '../../services/payments/gateway.ts';
import {
  hmacSha256Hex,
  paymentSignaturePayload,
  verifyHmacSha256Hex,
  verifyPaymentSignature,
} from '../../services/payments/signatures.ts';

/** The simulator's public key, shown to the checkout like Razorpay's test keys. */
export const SIMULATOR_KEY_ID = 'rzp_test_jalsasimulator';

export interface SimulatorSecrets {
  keySecret: string;
  webhookSecret: string;
}

/** The simulator's key and webhook secrets, derived from the app secret so nothing else needs configuring. */
export function simulatorSecrets(appSecret: string): SimulatorSecrets {
  return {
    keySecret: hmacSha256Hex(appSecret, 'jalsa-simulator:key-secret'),
    webhookSecret: hmacSha256Hex(appSecret, 'jalsa-simulator:webhook-secret'),
  };
}

/**
 * The offline gateway: the same protocol as Razorpay, with its books in the simulator_* tables.
 * The buyer's side (Pay / Fail / Dismiss) lives in `simulator/routes.ts` and the checkout's dialog.
 */
export function createSimulatorGateway(deps: { db: Db; clock: Clock; appSecret: string }): PaymentGateway {
  const secrets = simulatorSecrets(deps.appSecret);
  const { db, clock } = deps;
  const postgres = isPostgres(db);
  // SQLite's order insert is prepared once and batched by group commit (a hot statement, every Proceed).
  const insertOrder = postgres ? null : prepareInsertOrder(db);

  return {
    name: 'simulator',
    keyId: SIMULATOR_KEY_ID,

    async createOrder(input) {
      const id = gatewayId('order');
      const order = {
        id,
        amountPaise: input.amountPaise,
        currency: input.currency,
        receipt: input.receipt,
        notes: input.notes,
        createdAt: clock.now().toISOString(),
      };
      if (insertOrder) await groupCommitOf(db.$client).write(() => insertOrder.run(order));
      else await runStatements(db, (db) => changes(db.insert(tablesOf(db).simulatorOrders).values(order)));
      return {
        id,
        amountPaise: input.amountPaise,
        currency: input.currency,
        receipt: input.receipt,
        status: 'created',
      };
    },

    async fetchPayment(paymentId) {
      const row = await paymentRow(db, paymentId);
      if (!row) throw new GatewayError('The id provided does not exist', 'api', 400);
      return toPayment(row);
    },

    async fetchOrderPayments(orderId) {
      const found = await runStatements(db, (db) => {
        const { simulatorPayments } = tablesOf(db);
        return rows(db.select().from(simulatorPayments).where(eq(simulatorPayments.orderId, orderId)));
      });
      return found.map(toPayment);
    },

    async capturePayment(paymentId) {
      // Simulated payments are captured the moment they are paid.
      return this.fetchPayment(paymentId);
    },

    async refundPayment(paymentId, amountPaise, _notes, options = {}) {
      const row = await paymentRow(db, paymentId);
      if (!row || row.status === 'failed')
        throw new GatewayError('The id provided does not exist', 'api', 400);
      // Like Razorpay's X-Refund-Idempotency: the same key answers the refund already made.
      const keyedId = options.idempotencyKey ? `rfnd_${keyedRefundId(options.idempotencyKey)}` : null;
      if (keyedId && row.refundId === keyedId) {
        return { id: keyedId, paymentId, amountPaise, status: 'processed' };
      }
      if (row.amountRefundedPaise + amountPaise > row.amountPaise) {
        throw new GatewayError(
          'The total refund amount is greater than the refund payment amount',
          'api',
          400,
        );
      }
      const refundId = keyedId ?? gatewayId('rfnd');
      const refunded = row.amountRefundedPaise + amountPaise;
      await runStatements(db, (db) => {
        const { simulatorPayments } = tablesOf(db);
        return changes(
          db
            .update(simulatorPayments)
            .set({
              amountRefundedPaise: refunded,
              refundId,
              status: refunded === row.amountPaise ? 'refunded' : row.status,
            })
            .where(eq(simulatorPayments.id, paymentId)),
        );
      });
      return { id: refundId, paymentId, amountPaise, status: 'processed' };
    },

    verifyPaymentSignature: (result) => verifyPaymentSignature(secrets.keySecret, result),
    verifyWebhookSignature: (rawBody, signature) =>
      verifyHmacSha256Hex(secrets.webhookSecret, rawBody, signature),
  };
}

/** Order creation runs at every Proceed: compiled once, when the gateway is made, like the app's own hot statements. */
function prepareInsertOrder(db: Db) {
  return db
    .insert(simulatorOrders)
    .values({
      id: sql.placeholder('id'),
      amountPaise: sql.placeholder('amountPaise'),
      currency: sql.placeholder('currency'),
      receipt: sql.placeholder('receipt'),
      notes: sql.placeholder('notes'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare();
}

/** Razorpay's description when a payment is started on an order already paid. */
export const ORDER_ALREADY_PAID = 'Payment has already been made for this order.';

/**
 * Razorpay's refusal of a payment on a paid order: its error object (`code`, `description`, `reason`, …),
 * as the checkout reports an attempt it would not start.
 */
export class OrderAlreadyPaidError extends GatewayError {
  constructor(readonly orderId: string) {
    super(ORDER_ALREADY_PAID, 'api', 400);
    this.name = 'OrderAlreadyPaidError';
  }

  get razorpayError() {
    return {
      code: 'BAD_REQUEST_ERROR',
      description: ORDER_ALREADY_PAID,
      source: 'business',
      step: 'payment_initiation',
      reason: 'order_already_paid',
      metadata: { order_id: this.orderId },
    };
  }
}

/**
 * The buyer pressed Pay: a captured payment and its signed result, as Razorpay's checkout returns it.
 * An order already paid is refused, as Razorpay refuses it: a Pay cut off with its server and pressed
 * again on another must not take the money twice. The order is marked paid by a conditional UPDATE in
 * the same transaction as the payment, so of two Pays at once one pays and the other is refused.
 */
export async function simulatePayment(deps: { db: Db; clock: Clock; appSecret: string }, orderId: string) {
  const order = await findOrder(deps.db, orderId);
  if (order.status === 'paid') throw new OrderAlreadyPaidError(orderId);
  const paymentId = gatewayId('pay');
  await runnerFor(deps.db).write(function* (tx) {
    const { simulatorOrders, simulatorPayments } = tablesOf(tx);
    const paid = yield* changes(
      tx
        .update(simulatorOrders)
        .set({ status: 'paid' })
        .where(and(eq(simulatorOrders.id, orderId), ne(simulatorOrders.status, 'paid'))),
    );
    if (paid !== 1) throw new OrderAlreadyPaidError(orderId);
    yield* changes(
      tx.insert(simulatorPayments).values({
        id: paymentId,
        orderId,
        amountPaise: order.amountPaise,
        currency: order.currency,
        status: 'captured',
        createdAt: deps.clock.now().toISOString(),
      }),
    );
  });
  const signature = hmacSha256Hex(
    simulatorSecrets(deps.appSecret).keySecret,
    paymentSignaturePayload(orderId, paymentId),
  );
  return { razorpay_payment_id: paymentId, razorpay_order_id: orderId, razorpay_signature: signature };
}

/** The buyer pressed Fail: a failed attempt and the error object Razorpay's `payment.failed` event carries. */
export async function simulateFailure(deps: { db: Db; clock: Clock }, orderId: string, description: string) {
  const order = await findOrder(deps.db, orderId);
  if (order.status === 'paid') throw new OrderAlreadyPaidError(orderId);
  const paymentId = gatewayId('pay');
  await runStatements(deps.db, function* (db) {
    const { simulatorOrders, simulatorPayments } = tablesOf(db);
    // A failed attempt never takes a paid order back to 'attempted' (a Pay may have won meanwhile).
    const attempted = yield* changes(
      db
        .update(simulatorOrders)
        .set({ status: 'attempted' })
        .where(and(eq(simulatorOrders.id, orderId), ne(simulatorOrders.status, 'paid'))),
    );
    if (attempted !== 1) throw new OrderAlreadyPaidError(orderId);
    yield* changes(
      db.insert(simulatorPayments).values({
        id: paymentId,
        orderId,
        amountPaise: order.amountPaise,
        currency: order.currency,
        status: 'failed',
        errorDescription: description,
        createdAt: deps.clock.now().toISOString(),
      }),
    );
  });
  return {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'customer',
    step: 'payment_authorization',
    reason: 'payment_failed',
    metadata: { order_id: orderId, payment_id: paymentId },
  };
}

/** A payment as Razorpay's API and webhooks describe it (the `payment` entity). */
export async function simulatorPaymentEntity(db: Db, paymentId: string) {
  const row = await paymentRow(db, paymentId);
  if (!row) throw new GatewayError('The id provided does not exist', 'api', 400);
  return {
    id: row.id,
    entity: 'payment',
    amount: row.amountPaise,
    currency: row.currency,
    status: row.status,
    order_id: row.orderId,
    method: 'card',
    amount_refunded: row.amountRefundedPaise,
    captured: row.status === 'captured',
    error_description: row.errorDescription,
    created_at: Math.floor(new Date(row.createdAt).getTime() / 1000),
  };
}

export async function findSimulatorOrder(db: Db, orderId: string) {
  const order = await runStatements(db, (db) => {
    const { simulatorOrders } = tablesOf(db);
    return row(db.select().from(simulatorOrders).where(eq(simulatorOrders.id, orderId)));
  });
  return order ?? null;
}

function paymentRow(db: Db, paymentId: string) {
  return runStatements(db, (db) => {
    const { simulatorPayments } = tablesOf(db);
    return row(db.select().from(simulatorPayments).where(eq(simulatorPayments.id, paymentId)));
  });
}

async function findOrder(db: Db, orderId: string) {
  const order = await findSimulatorOrder(db, orderId);
  if (!order) throw new GatewayError('The id provided does not exist', 'api', 400);
  return order;
}

function toPayment(row: typeof simulatorPayments.$inferSelect): GatewayPayment {
  return {
    id: row.id,
    orderId: row.orderId,
    amountPaise: row.amountPaise,
    currency: row.currency,
    status: row.status,
    amountRefundedPaise: row.amountRefundedPaise,
    errorDescription: row.errorDescription,
  };
}

/** Letters and digits in ASCII order, so that ids compare as text in the order they were made. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/**
 * Razorpay-shaped ids: `order_`, `pay_`, `rfnd_` followed by 14 letters and digits. The first 8 are
 * the time in milliseconds, so new orders land at the end of the simulator's and the app's indexes;
 * the last 6 are random.
 */
function gatewayId(prefix: string): string {
  let out = '';
  for (let time = Date.now(), i = 0; i < 8; i += 1, time = Math.floor(time / 62)) {
    out = ALPHABET[time % 62] + out;
  }
  for (const b of pooledRandomBytes(6)) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

/** A refund id derived from an idempotency key, so the simulator recognises a repeated request. */
function keyedRefundId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 14);
}
