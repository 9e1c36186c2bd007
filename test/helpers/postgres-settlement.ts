import { expect } from 'vitest';
import type { PgDb } from '../../src-server/db/engine/postgres.ts';
import { type PaymentOutcomeRow, timeShiftStatements } from './fault-process.ts';

/**
 * fault-process.ts's settlement checks (letTimePass, capturedPayments, allPaymentsSettled,
 * expectEachPaymentSettledOnce) for servers on PostgreSQL, read over the test's own pool.
 */

async function all<T>(db: PgDb, sql: string): Promise<T[]> {
  return (await db.$client.query(sql)).rows as T[];
}

/**
 * Moves the order, refund, hold and outbox times `ms` into the past, as if that much time had passed
 * (holds expire, the reconciler takes orders over a minute old, refunds wait out their back-off). The
 * times are ISO strings in text columns, as on SQLite.
 */
export async function letTimePassOnPostgres(db: PgDb, ms: number) {
  await db.$client.query(
    timeShiftStatements(
      (column) =>
        `to_char((${column}::timestamptz - interval '${Math.round(ms / 1000)} seconds') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    ),
  );
}

/** Every payment the simulator captured, with what the books made of it. */
export function capturedPaymentsOnPostgres(db: PgDb): Promise<PaymentOutcomeRow[]> {
  return all<PaymentOutcomeRow>(
    db,
    `select p.id as "paymentId", p.amount_paise::int as amount, p.amount_refunded_paise::int as "amountRefunded",
      (select count(*)::int from bookings b where b.payment_id = p.id) as bookings,
      (select count(*)::int from refunds r where r.payment_id = p.id) as refunds,
      (select r.status from refunds r where r.payment_id = p.id) as "refundStatus"
     from simulator_payments p where p.status in ('captured', 'refunded')`,
  );
}

/** Whether no hold is active and every captured payment has reached its end (a booking, or a refund made). */
export async function settledOnPostgres(db: PgDb): Promise<boolean> {
  const [active] = await all<{ n: number }>(
    db,
    `select count(*)::int as n from holds where status = 'active'`,
  );
  if (active!.n > 0) return false;
  return (await capturedPaymentsOnPostgres(db)).every(
    (p) => p.bookings + p.refunds === 1 && (p.refunds === 0 || p.refundStatus === 'processed'),
  );
}

/** What is not settled yet, for a failure's message: active holds and payments short of their end. */
export async function unsettledOnPostgres(db: PgDb): Promise<string> {
  const holds = await all<{ id: string; expiresAt: string }>(
    db,
    `select id, expires_at as "expiresAt" from holds where status = 'active'`,
  );
  const payments = (await capturedPaymentsOnPostgres(db)).filter(
    (p) => p.bookings + p.refunds !== 1 || (p.refunds === 1 && p.refundStatus !== 'processed'),
  );
  const orders = await all<object>(
    db,
    `select status, count(*)::int as n from payment_orders group by status`,
  );
  return JSON.stringify(
    { activeHolds: holds.slice(0, 5), activeHoldCount: holds.length, payments, orders },
    null,
    1,
  );
}

/**
 * Exactly once, everywhere: each captured payment is one booking or one refund (refunded at the gateway
 * exactly once, never a booked payment refunded); each booking appears once on its buyer and has one
 * confirmation mail; each refund one refund mail.
 */
export async function expectEachPaymentSettledOnceOnPostgres(db: PgDb) {
  for (const p of await capturedPaymentsOnPostgres(db)) {
    expect(p.bookings + p.refunds, `outcomes of ${p.paymentId}`).toBe(1);
    if (p.refunds === 1) {
      expect(p.refundStatus, `refund of ${p.paymentId}`).toBe('processed');
      expect(p.amountRefunded, `refunded amount of ${p.paymentId}`).toBe(p.amount);
    } else {
      expect(p.amountRefunded, `refunded amount of booked ${p.paymentId}`).toBe(0);
    }
  }
  const listed = (await all<{ list: string[] }>(db, 'select booking_ids_list as list from users')).flatMap(
    (u) => u.list,
  );
  const booked = (await all<{ id: string }>(db, 'select id from bookings')).map((b) => b.id);
  expect([...listed].sort()).toEqual([...booked].sort());
  const mails = (await all<{ key: string }>(db, 'select idempotency_key as key from outbox')).map(
    (m) => m.key,
  );
  expect(mails.filter((k) => k.startsWith('booking-confirmed:')).sort()).toEqual(
    booked.map((id) => `booking-confirmed:${id}`).sort(),
  );
  const refunded = await all<{ paymentId: string }>(db, 'select payment_id as "paymentId" from refunds');
  expect(mails.filter((k) => k.startsWith('payment-refunded:')).sort()).toEqual(
    refunded.map((r) => `payment-refunded:${r.paymentId}`).sort(),
  );
}

/** Polls `check` until it is true; fails with `what` (and the diagnostics) after `ms`. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  diagnostics?: () => Promise<string> | string,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`gave up waiting for ${what}\n${(await diagnostics?.()) ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
