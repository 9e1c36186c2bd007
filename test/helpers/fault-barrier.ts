/**
 * Preloaded into a server child process by the fault tests (never imported by the app): it watches the
 * SQL the payments service runs and, when the step armed in `$DATA_DIR/fault-barrier.json` is reached
 * for the armed payment, prints `FAULT-BARRIER <step> <paymentId>` and freezes the process there, so the
 * test can kill it with SIGKILL from outside at exactly that step. Nothing in src-server knows about it.
 *
 * Steps, in the order a payment passes them (see services/payments/confirm.ts):
 * - `after-verify`: the signature (or webhook, or gateway fetch) was checked and the settlement
 *   transaction is open, nothing written yet;
 * - `booking-before-commit` / `refund-before-commit`: the booking (or refund) rows are written, COMMIT not run;
 * - `booking-after-commit` / `refund-after-commit`: committed, nobody told yet (and the refund not asked for);
 * - `refund-after-gateway`: the gateway has refunded the money, our refund row still says pending.
 *
 * Loaded with `--require` (the child's NODE_OPTIONS, after `--require tsx/cjs`), which also runs it in
 * tsx's loader thread, where it does nothing.
 */
import { readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import Database from 'better-sqlite3';

export type BarrierStep =
  | 'after-verify'
  | 'booking-before-commit'
  | 'booking-after-commit'
  | 'refund-before-commit'
  | 'refund-after-commit'
  | 'refund-after-gateway';

export interface ArmedBarrier {
  step: BarrierStep;
  paymentId: string;
}

export const BARRIER_FILE = 'fault-barrier.json';
export const BARRIER_MARK = 'FAULT-BARRIER';

if (isMainThread && process.env.DATA_DIR) installBarrier(process.env.DATA_DIR);

function installBarrier(dataDir: string) {
  const file = path.join(dataDir, BARRIER_FILE);
  const armed = (): ArmedBarrier | null => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as ArmedBarrier;
    } catch {
      return null;
    }
  };
  // Every prepared statement shares the native Statement prototype, including better-sqlite3's own
  // BEGIN/COMMIT statements, so wrapping run/get covers the whole settlement transaction.
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  const run = proto.run as (this: Statement, ...args: unknown[]) => unknown;
  const get = proto.get as (this: Statement, ...args: unknown[]) => unknown;

  // The settlement in progress: which payment, and whether it wrote a booking or a refund.
  let settling: { paymentId: string; wrote: 'booking' | 'refund' | null } | null = null;

  proto.get = function (this: Statement, ...args: unknown[]) {
    if (this.source.startsWith('select "id" from "bookings" where "bookings"."payment_id" = ?')) {
      const paymentId = String(args[0]);
      settling = { paymentId, wrote: null };
      const barrier = armed();
      if (barrier?.step === 'after-verify' && barrier.paymentId === paymentId) stop(barrier);
    }
    return get.apply(this, args);
  };

  proto.run = function (this: Statement, ...args: unknown[]) {
    const sql = this.source;
    if (settling && sql.startsWith('insert into "bookings"')) settling.wrote = 'booking';
    if (settling && sql.startsWith('insert into "refunds"')) settling.wrote = 'refund';
    if (sql === 'COMMIT' || sql === 'ROLLBACK') {
      const ending = settling;
      settling = null;
      const barrier = ending?.wrote && sql === 'COMMIT' ? armed() : null;
      const mine = barrier && ending && barrier.paymentId === ending.paymentId;
      if (mine && barrier.step === `${ending.wrote}-before-commit`) stop(barrier);
      const result = run.apply(this, args);
      if (mine && barrier.step === `${ending.wrote}-after-commit`) stop(barrier);
      return result;
    }
    const result = run.apply(this, args);
    // The simulator gateway records a refund on its payment row (integrations/simulator/gateway.ts).
    if (sql.startsWith('update "simulator_payments"') && sql.includes('"amount_refunded_paise"')) {
      const barrier = armed();
      if (barrier?.step === 'refund-after-gateway' && args.includes(barrier.paymentId)) stop(barrier);
    }
    return result;
  };
}

interface Statement {
  source: string;
}

/** Announces the step on stderr (synchronously) and blocks this thread for good: only SIGKILL ends it. */
function stop(barrier: ArmedBarrier): never {
  writeSync(2, `\n${BARRIER_MARK} ${barrier.step} ${barrier.paymentId}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  throw new Error('unreachable');
}
