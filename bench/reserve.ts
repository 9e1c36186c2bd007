import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '../src-server/app.ts';
import { composeDeps } from '../src-server/compose-deps.ts';
import { openDatabase } from '../src-server/db/client.ts';
import { users } from '../src-server/db/schema/accounts.ts';
import { systemClock } from '../src-server/deps.ts';
import { EnvSchema } from '../src-server/env.ts';
import { createLogger } from '../src-server/logger.ts';
import { createSession, SESSION_COOKIE } from '../src-server/services/accounts/sessions.ts';
import { releaseHold, reserveSeats } from '../src-server/services/inventory/holds.ts';
import { createOnSaleEvent } from './lib/fixtures.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const DETAILS = {
  name: 'Bench Buyer',
  email: 'bench@example.com',
  phone: '9876543210',
  state: 'Goa',
} as const;

/**
 * Reservation speed (issue 4): how fast Proceed can take seats without ever overselling.
 *  1. the inventory service alone: reserve + release pairs on one connection;
 *  2. four processes with their own connections racing for the same seats (BEGIN IMMEDIATE contention);
 *  3. payments.start through the real HTTP app (auth, validation, hold, simulator order), 64 at a time.
 * Flags: --ops N (2000) for parts 1 and 3.
 */
export async function runReserveBenchmark(args: { ops: number }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-bench-reserve-'));
  const file = path.join(dataDir, 'jalsa.db');
  const database = openDatabase(file);
  try {
    const { db } = database;
    const seats = 1_000_000;
    const ev = benchEvent(db, seats);
    const now = new Date().toISOString();
    const buyers = Array.from({ length: 256 }, () => {
      const id = randomUUID();
      db.insert(users)
        .values({ id, email: `${id}@bench.local`, name: 'Bench', createdAt: now, updatedAt: now })
        .run();
      return id;
    });

    // 1. Service only.
    const serviceLatencies: number[] = [];
    const serviceStarted = performance.now();
    for (let i = 0; i < args.ops; i += 1) {
      const t0 = performance.now();
      const hold = reserveSeats(
        db,
        {
          ...ev.base,
          userId: buyers[i % buyers.length]!,
          lines: [{ ticketTypeId: ev.typeId, quantity: 2 }],
          details: DETAILS,
          userCity: null,
          platformFeeRate: null,
        },
        new Date(),
      );
      serviceLatencies.push(performance.now() - t0);
      await releaseHold(db, hold.id, 'cancelled', new Date());
    }
    const serviceSeconds = (performance.now() - serviceStarted) / 1000;

    // 2. Four processes racing for 400 seats with 1000 one-seat reservations.
    const race = benchEvent(db, 400);
    const startAt = Date.now() + 2000;
    const raceStarted = performance.now();
    const outputs = await Promise.all(
      [0, 1, 2, 3].map((w) =>
        run(
          process.execPath,
          [
            '--import',
            'tsx',
            'bench/reserve-worker.ts',
            file,
            JSON.stringify({
              eventId: race.base.eventId,
              dateId: race.base.eventDateId,
              slotId: race.base.slotId,
              ticketTypeId: race.typeId,
              userIds: Array.from({ length: 250 }, (_, i) => buyers[(w * 250 + i) % buyers.length]),
              quantity: 1,
              startAt,
            }),
          ],
          { cwd: ROOT },
        ),
      ),
    );
    const raceSeconds = (performance.now() - raceStarted) / 1000 - 2;
    const workers = outputs.map(
      (o) => JSON.parse(o.stdout) as { held: number; refused: number; latencies: number[] },
    );
    const raceLatencies = workers.flatMap((w) => w.latencies);
    const held = workers.reduce((s, w) => s + w.held, 0);
    const left = database.sqlite
      .prepare('select available_tickets as n from ticket_types where id = ?')
      .get(race.typeId) as { n: number };

    // 3. Through the HTTP app.
    const env = EnvSchema.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const app = createApp(
      composeDeps({
        db,
        sqlite: database.sqlite,
        env,
        logger: createLogger('silent'),
        clock: systemClock,
        appSecret: 'bench-secret-0123456789abcdef0123456789',
      }),
    );
    const cookies = buyers.map((id) => `${SESSION_COOKIE}=${createSession(db, id, new Date()).token}`);
    const httpLatencies: number[] = [];
    let httpFailures = 0;
    let next = 0;
    const httpStarted = performance.now();
    await Promise.all(
      Array.from({ length: 64 }, async (_, lane) => {
        while (next < args.ops) {
          const i = next++;
          const t0 = performance.now();
          const res = await app.request('http://localhost/trpc/payments.start', {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: cookies[(i + lane) % cookies.length]! },
            body: JSON.stringify({
              eventId: ev.base.eventId,
              selectedDate: ev.base.eventDateId,
              selectedSlot: ev.base.slotId,
              selectedTickets: [{ ticketTypeId: ev.typeId, quantity: 1 }],
              ticketDetails: DETAILS,
            }),
          });
          await res.arrayBuffer();
          if (res.status !== 200) httpFailures += 1;
          httpLatencies.push(performance.now() - t0);
        }
      }),
    );
    const httpSeconds = (performance.now() - httpStarted) / 1000;

    const rows = [
      {
        part: 'reserveSeats (+ release), 1 connection',
        ops: args.ops,
        'ops/s': Math.round(args.ops / serviceSeconds),
        ...pct(serviceLatencies),
      },
      {
        part: `4 processes racing: ${held} held of 400, ${left.n} left`,
        ops: 1000,
        'ops/s': Math.round(1000 / raceSeconds),
        ...pct(raceLatencies),
      },
      {
        part: `payments.start over HTTP, 64 in flight (${httpFailures} failed)`,
        ops: args.ops,
        'ops/s': Math.round(args.ops / httpSeconds),
        ...pct(httpLatencies),
      },
    ];
    console.table(rows);
    console.log(markdown(rows));
    if (held !== 400 || left.n !== 0) throw new Error(`oversold or undersold: held ${held}, left ${left.n}`);
    return rows;
  } finally {
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One on-sale event with one ticket type of `seats`, in the shape the reservation calls take. */
function benchEvent(db: ReturnType<typeof openDatabase>['db'], seats: number) {
  const ev = createOnSaleEvent(db, 'Bench Night', [{ name: 'General', seats }]);
  return {
    base: { eventId: ev.eventId, eventDateId: ev.dateId, slotId: ev.slotId },
    typeId: ev.ticketTypes[0]!.id,
  };
}

function pct(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) =>
    Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(2));
  return { 'p50 ms': at(50), 'p99 ms': at(99) };
}

function markdown(rows: Record<string, string | number>[]) {
  const keys = Object.keys(rows[0]!);
  return [
    `| ${keys.join(' | ')} |`,
    `| ${keys.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${keys.map((k) => r[k]).join(' | ')} |`),
  ].join('\n');
}
