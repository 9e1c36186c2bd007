import { createHmac, randomUUID } from 'node:crypto';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { users } from '../../src-server/db/schema/accounts.ts';
import { simulatorSecrets } from '../../src-server/integrations/simulator/gateway.ts';
import { createSession, SESSION_COOKIE } from '../../src-server/services/accounts/sessions.ts';
import type { CheckoutSession } from '../../src-server/services/checkout/checkout-session.ts';
import { allowLocalServers } from '../mocks/server.ts';
import { type ArmedBarrier, BARRIER_FILE, BARRIER_MARK } from './fault-barrier.ts';
import { DETAILS, type TicketedEvent } from './inventory.ts';
import { scratchDatabase } from './scratch-database.ts';
import { ONE_ADDRESS_CROWD_ENV, type ServerProcess, startServerProcess } from './server-process.ts';

/** The app secret every fault-test server runs with, so the test can sign simulator webhooks too. */
export const FAULT_APP_SECRET = 'fault-tests-secret-0123456789abcdef0123456789';

const BARRIER_PRELOAD = path.resolve(import.meta.dirname, 'fault-barrier.ts');
const started = new Set<ServerProcess>();

/**
 * A data folder for one scenario and the test's own connection to its database (SQLite in WAL mode
 * lets the test read and write beside the server processes, as a second process would).
 */
export function faultDataDir(): { dataDir: string; database: DatabaseHandle; remove: () => void } {
  return scratchDatabase('jalsa-fault-');
}

/**
 * The real server (`src-server/index.ts`) as a child process on `dataDir`, with the offline simulator,
 * no demo data, every background job running every `jobIntervalMs`, and the fault barrier preloaded
 * (inert until a test arms it). Remembered, so `killAllServers()` can end it whatever happens.
 */
export async function startFaultServer(
  dataDir: string,
  options: { jobIntervalMs?: number; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  allowLocalServers();
  const server = await startServerProcess({
    dataDir,
    env: {
      SEED_DEMO_DATA: 'false',
      APP_SECRET: FAULT_APP_SECRET,
      JOB_INTERVAL_MS: String(options.jobIntervalMs ?? 200),
      LOG_LEVEL: 'error',
      ...ONE_ADDRESS_CROWD_ENV,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require tsx/cjs --require ${BARRIER_PRELOAD}`.trim(),
      ...options.env,
    },
  });
  started.add(server);
  server.child.once('exit', () => started.delete(server));
  return server;
}

/** kill -9: the process gets no chance to finish anything. Resolves once it is gone. */
export function killHard(server: ServerProcess): Promise<void> {
  return server.stop('SIGKILL');
}

/** For afterEach/afterAll: SIGKILLs every fault-test server still running, and whatever it started. */
export async function killAllServers(): Promise<void> {
  await Promise.all([...started].map(killHard));
}

export function armBarrier(dataDir: string, barrier: ArmedBarrier) {
  writeFileSync(path.join(dataDir, BARRIER_FILE), JSON.stringify(barrier));
}

export function disarmBarrier(dataDir: string) {
  try {
    unlinkSync(path.join(dataDir, BARRIER_FILE));
  } catch {
    // not armed
  }
}

/** Resolves once the server has stopped at the armed step (it stays frozen there until killed). */
export function waitForBarrier(server: ServerProcess, barrier: ArmedBarrier): Promise<void> {
  const mark = `${BARRIER_MARK} ${barrier.step} ${barrier.paymentId}`;
  return waitUntil(
    () => server.output().includes(mark),
    `the server to reach ${barrier.step}`,
    () => server.output(),
  );
}

/** Polls `check` until it is true; fails with `what` (and the diagnostics) after 30 s. */
export async function waitUntil(check: () => boolean, what: string, diagnostics?: () => string) {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}\n${diagnostics?.() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Lets time pass while the servers are down: moves the order, refund, hold and outbox times `ms` into
 * the past, as if the restart came that much later (the reconciler leaves orders younger than a minute
 * to the callback and webhooks; the refund job waits out a refund's back-off and the lease of a
 * process that died calling the gateway; the mail sender waits out its backoff and the lease on a
 * message it was sending).
 */
export function letTimePass(database: DatabaseHandle, ms: number) {
  const shift = `'-${Math.round(ms / 1000)} seconds'`;
  database.sqlite.exec(
    timeShiftStatements((column) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column}, ${shift})`),
  );
}

/**
 * The statements that move the order, refund, hold and outbox times into the past, each time column
 * rewritten by `earlier` (the engine's expression for that column's ISO text, shifted): `letTimePass`
 * and its PostgreSQL twin in postgres-settlement.ts.
 */
export function timeShiftStatements(earlier: (column: string) => string): string {
  return `
    update payment_orders set created_at = ${earlier('created_at')},
      checked_at = case when checked_at is null then null else ${earlier('checked_at')} end;
    update refunds set updated_at = ${earlier('updated_at')},
      next_attempt_at = case when next_attempt_at is null then null else ${earlier('next_attempt_at')} end;
    update holds set created_at = ${earlier('created_at')}, expires_at = ${earlier('expires_at')},
      session_expires_at = ${earlier('session_expires_at')};
    update outbox set next_attempt_at = ${earlier('next_attempt_at')} where status = 'pending';
  `;
}

/** A user with a session, written straight into the database; returns the Cookie header. */
export function signedInBuyer(database: DatabaseHandle) {
  const userId = randomUUID();
  const now = new Date().toISOString();
  database.db
    .insert(users)
    .values({
      id: userId,
      email: `buyer-${userId.slice(0, 8)}@example.com`,
      name: 'Fault Buyer',
      phone: '9876543210',
      // Holding seats needs a verified address (issue 19).
      isEmailVerified: true,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  const { token } = createSession(database.db, userId, new Date());
  return { userId, cookie: `${SESSION_COOKIE}=${token}` };
}

export interface ProcedureAnswer {
  status: number;
  data?: unknown;
  error?: { message: string };
}

/** One tRPC call over real HTTP to a server process, as the browser's client makes it. */
export async function callServer(
  server: ServerProcess,
  kind: 'query' | 'mutation',
  procedure: string,
  input: unknown,
  cookie?: string,
): Promise<ProcedureAnswer> {
  allowLocalServers();
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const url = `${server.baseURL}/trpc/${procedure}`;
  const res =
    kind === 'query'
      ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
      : await fetch(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
  const body = (await res.json()) as { result?: { data: unknown }; error?: { message: string } };
  return { status: res.status, data: body.result?.data, error: body.error };
}

/** Proceed for `quantity` seats of the event's ticket type `typeIndex`. */
export function proceedOn(
  server: ServerProcess,
  cookie: string,
  ev: TicketedEvent,
  quantity: number,
  typeIndex = 0,
) {
  return callServer(
    server,
    'mutation',
    'payments.start',
    {
      eventId: ev.eventId,
      selectedDate: ev.dateId,
      selectedSlot: ev.slotId,
      selectedTickets: [{ ticketTypeId: ev.ticketTypeIds[typeIndex]!, quantity }],
      ticketDetails: DETAILS,
    },
    cookie,
  );
}

export async function proceedOrFail(server: ServerProcess, cookie: string, ev: TicketedEvent, quantity = 1) {
  const res = await proceedOn(server, cookie, ev, quantity);
  expect(res.status, JSON.stringify(res.error)).toBe(200);
  return res.data as CheckoutSession;
}

export interface SignedResult {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

/** The browser's success callback with the payment window's signed result. */
export function confirmOn(server: ServerProcess, cookie: string, paid: SignedResult) {
  return callServer(
    server,
    'mutation',
    'payments.confirm',
    {
      orderId: paid.razorpay_order_id,
      paymentId: paid.razorpay_payment_id,
      signature: paid.razorpay_signature,
    },
    cookie,
  );
}

/** A gateway webhook, signed with the simulator's webhook secret, posted to a server process. */
export async function deliverWebhook(
  server: ServerProcess,
  event: string,
  payload: object,
  eventId: string,
): Promise<number> {
  allowLocalServers();
  const body = JSON.stringify({ entity: 'event', event, contains: Object.keys(payload), payload });
  const signature = createHmac('sha256', simulatorSecrets(FAULT_APP_SECRET).webhookSecret)
    .update(body)
    .digest('hex');
  const res = await fetch(`${server.baseURL}/api/webhooks/razorpay`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': signature,
      'x-razorpay-event-id': eventId,
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Whether a request failed because the server died under it (no HTTP answer at all). */
export async function settledOrCut<T>(request: Promise<T>): Promise<T | 'cut'> {
  try {
    return await request;
  } catch {
    return 'cut';
  }
}

export interface PaymentOutcomeRow {
  paymentId: string;
  amount: number;
  amountRefunded: number;
  bookings: number;
  refunds: number;
  refundStatus: string | null;
}

/** Every payment the simulator captured, with what our books made of it. */
export function capturedPayments(database: DatabaseHandle): PaymentOutcomeRow[] {
  return database.sqlite
    .prepare(
      `select p.id as paymentId, p.amount_paise as amount, p.amount_refunded_paise as amountRefunded,
        (select count(*) from bookings b where b.payment_id = p.id) as bookings,
        (select count(*) from refunds r where r.payment_id = p.id) as refunds,
        (select r.status from refunds r where r.payment_id = p.id) as refundStatus
       from simulator_payments p where p.status in ('captured', 'refunded')`,
    )
    .all() as PaymentOutcomeRow[];
}

/** Whether every captured payment has reached its end: a booking, or a refund the gateway has made. */
export function allPaymentsSettled(database: DatabaseHandle): boolean {
  return capturedPayments(database).every(
    (p) => p.bookings + p.refunds === 1 && (p.refunds === 0 || p.refundStatus === 'processed'),
  );
}

/**
 * Exactly once, everywhere: each captured payment is one booking or one refund (refunded at the
 * gateway exactly once, never a booked payment refunded); each booking appears once on its buyer and
 * has one confirmation mail; each refund one refund mail.
 */
export function expectEachPaymentSettledOnce(database: DatabaseHandle) {
  for (const p of capturedPayments(database)) {
    expect(p.bookings + p.refunds, `outcomes of ${p.paymentId}`).toBe(1);
    if (p.refunds === 1) {
      expect(p.refundStatus, `refund of ${p.paymentId}`).toBe('processed');
      expect(p.amountRefunded, `refunded amount of ${p.paymentId}`).toBe(p.amount);
    } else {
      expect(p.amountRefunded, `refunded amount of booked ${p.paymentId}`).toBe(0);
    }
  }
  const q = <T>(sql: string) => database.sqlite.prepare(sql).all() as T[];
  const listed = q<{ list: string }>('select booking_ids_list as list from users').flatMap(
    (u) => JSON.parse(u.list) as string[],
  );
  const booked = q<{ id: string }>('select id from bookings').map((b) => b.id);
  expect([...listed].sort()).toEqual([...booked].sort());
  const mails = q<{ key: string }>('select idempotency_key as key from outbox').map((m) => m.key);
  expect(mails.filter((k) => k.startsWith('booking-confirmed:')).sort()).toEqual(
    booked.map((id) => `booking-confirmed:${id}`).sort(),
  );
  const refunded = q<{ paymentId: string }>('select payment_id as paymentId from refunds');
  expect(mails.filter((k) => k.startsWith('payment-refunded:')).sort()).toEqual(
    refunded.map((r) => `payment-refunded:${r.paymentId}`).sort(),
  );
}

/** A small seeded generator (mulberry32), so every run sends the same mix in the same order. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
