import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { parseTicketToken } from '../shared/ticket-token-format.ts';
import { decideLocally } from '../src-client/gate/decide-locally.ts';
import { type GateApi, GateEngine } from '../src-client/gate/gate-engine.ts';
import { GateStore } from '../src-client/gate/gate-store.ts';
import { verifyEd25519Token } from '../src-client/gate/verify-ticket.ts';
import { appSecretFile } from '../src-server/app-secret.ts';
import { type DatabaseHandle, type Db, databaseFile, openDatabase } from '../src-server/db/client.ts';
import { users } from '../src-server/db/schema/accounts.ts';
import { bookings } from '../src-server/db/schema/bookings.ts';
import { createSession, SESSION_COOKIE } from '../src-server/services/accounts/sessions.ts';
import { recordScan } from '../src-server/services/gate/record-scan.ts';
import { syncSlot } from '../src-server/services/gate/sync-slot.ts';
import { setGateStaff } from '../src-server/services/tickets/gate-staff.ts';
import { signTicketToken } from '../src-server/services/tickets/ticket-token.ts';
import { insertBookingWithEvent } from '../test/helpers/bookings.ts';
import { createHttpClient, percentiles } from './lib/http.ts';
import { startBenchServer } from './lib/server.ts';

const SECRET = 'bench-gate-secret-0123456789abcdef0123456789';

/**
 * The gate (issue 15, docs/decisions/0022):
 *  1. online check-ins per second: `gates` concurrent gates scanning through the scan service (write
 *     transaction + conditional update + log row) on one process; no ticket admitted beyond its persons;
 *     then the same through the real stack: one server process (bench/lib/serve.ts), each gate a
 *     signed-in staff member of the event posting `gate.scan` over HTTP (tRPC, session, per-event rights);
 *  2. download and index a `tickets`-ticket slot: the server's whole-list answer (time, JSON size), then the
 *     device storing it (IndexedDB via fake-indexeddb in Node, an upper bound for a phone's) and indexing it;
 *  3. local look-up: list look-up + decision, and an Ed25519 verification with WebCrypto;
 *  4. the double-entry window: a simulated 5,000-person entry with devices dropping offline at random.
 */
export async function runGateBenchmark(args: { gates: number; scans: number; tickets: number }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-bench-gate-'));
  const database = openDatabase(databaseFile(dataDir));
  try {
    const results = {
      online: await onlineCheckIns(database, args.gates, args.scans),
      onlineHttp: await onlineCheckInsOverHttp(args.gates, args.scans),
      download: await downloadSlot(database, args.tickets),
      lookUp: await localLookUp(),
      doubleEntryWindow: simulateDoubleEntries(),
    };
    console.table([results.online, results.onlineHttp]);
    console.table([results.download]);
    console.table([results.lookUp]);
    console.table(results.doubleEntryWindow);
    console.log(JSON.stringify({ bench: 'gate', ...results }));
    return results;
  } finally {
    database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function seedSlot(database: DatabaseHandle, count: number, personsEach: number) {
  const now = new Date();
  const userId = randomUUID();
  database.db
    .insert(users)
    .values({
      id: userId,
      email: `gate-bench-${userId}@example.com`,
      name: 'Bench',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .run();
  const first = insertBookingWithEvent(database.db, now, {
    userId,
    quantity: 1,
    personAllowedPerTicket: personsEach,
  });
  const ids = [first.bookingId];
  database.sqlite.transaction(() => {
    for (let i = 1; i < count; i++) {
      const id = `JB${String(i).padStart(10, '0')}${randomUUID().slice(0, 4)}`;
      database.db
        .insert(bookings)
        .values({
          ...first.row,
          id,
          paymentId: `pay_${id}`,
          orderId: `order_${id}`,
          userName: `Holder ${i}`,
        })
        .run();
      ids.push(id);
    }
  })();
  return { eventId: first.eventId, slotId: first.row.slotId, ids, userId };
}

async function onlineCheckIns(database: DatabaseHandle, gates: number, scans: number) {
  // Twice as many scans as entries: half are refused (used), and every ticket is hit by several gates.
  const slot = seedSlot(database, Math.ceil(scans / 4), 2);
  const tokens = slot.ids.map((id) => signTicketToken(SECRET, id));
  let next = 0;
  let admitted = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: gates }, async (_, g) => {
      while (next < scans) {
        // Most tickets are scanned once or twice; a few are tried by several gates at once.
        const i = next++;
        const token = tokens[(i * 7919) % tokens.length]!;
        const answer = await recordScan(
          database.db,
          SECRET,
          { eventId: slot.eventId, staffUserId: slot.userId },
          {
            slotId: slot.slotId,
            gate: `Gate ${g}`,
            deviceId: `d${g}`,
            scanId: randomUUID(),
            token,
            persons: 1,
          },
          new Date(),
        );
        if (answer.outcome === 'admit') admitted++;
        else refused++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const over = overAdmittedTickets(database.db);
  return {
    part: 'online check-ins',
    gates,
    scans,
    admitted,
    refused,
    scansPerSecond: Math.round(scans / seconds),
    overAdmittedTickets: over,
  };
}

/**
 * The same scans through the whole stack: a server process of its own, 20 staff members of the event
 * each with a session, every scan a `gate.scan` POST (tRPC, session lookup, per-event rights, the scan
 * service). Tokens are signed with the server's own app secret.
 */
async function onlineCheckInsOverHttp(gates: number, scans: number) {
  const server = await startBenchServer();
  const database = openDatabase(databaseFile(server.dataDir));
  const client = createHttpClient(server.baseURL, gates);
  try {
    const secret = readFileSync(appSecretFile(server.dataDir), 'utf8').trim();
    const slot = seedSlot(database, Math.ceil(scans / 4), 2);
    const now = new Date();
    const cookies = await Promise.all(
      Array.from({ length: gates }, async (_, g) => {
        const id = randomUUID();
        const email = `gate-${g}-${id.slice(0, 8)}@bench.local`;
        database.db
          .insert(users)
          .values({
            id,
            email,
            name: `Gate ${g}`,
            isEmailVerified: true,
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          })
          .run();
        await setGateStaff(database.db, email, slot.eventId, true, now);
        return `${SESSION_COOKIE}=${createSession(database.db, id, now).token}`;
      }),
    );
    const tokens = slot.ids.map((id) => signTicketToken(secret, id));
    let next = 0;
    let admitted = 0;
    let refused = 0;
    let failed = 0;
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: gates }, async (_, g) => {
        while (next < scans) {
          const i = next++;
          const answer = await client.post(
            '/trpc/gate.scan',
            JSON.stringify({
              eventId: slot.eventId,
              slotId: slot.slotId,
              gate: `Gate ${g}`,
              deviceId: `d${g}`,
              scanId: randomUUID(),
              token: tokens[(i * 7919) % tokens.length],
              persons: 1,
            }),
            { cookie: cookies[g]! },
          );
          latencies.push(answer.ms);
          if (answer.status !== 200) {
            failed++;
            continue;
          }
          const outcome = (JSON.parse(answer.body) as { result: { data: { outcome: string } } }).result.data
            .outcome;
          if (outcome === 'admit') admitted++;
          else refused++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const over = overAdmittedTickets(database.db);
    const { p50, p99 } = percentiles(latencies);
    return {
      part: 'online check-ins over HTTP (one server process)',
      gates,
      scans,
      admitted,
      refused,
      failed,
      scansPerSecond: Math.round(scans / seconds),
      p50Ms: Math.round(p50),
      p99Ms: Math.round(p99),
      overAdmittedTickets: over,
    };
  } finally {
    client.close();
    database.close();
    await server.stop();
  }
}

async function downloadSlot(database: DatabaseHandle, count: number) {
  const slot = seedSlot(database, count, 2);
  let t = performance.now();
  const answer = await syncSlot(database.db, SECRET, slot.eventId, {
    slotId: slot.slotId,
    ticketCursor: 0,
    feedCursor: 0,
  });
  const json = JSON.stringify(answer);
  const serverMs = performance.now() - t;

  const store = await GateStore.open(`bench-${randomUUID()}`);
  const api: GateApi = {
    sync: async () => JSON.parse(json),
    scan: async () => {
      throw new Error('not used');
    },
    upload: async () => [],
    undo: async () => {
      throw new Error('not used');
    },
  };
  const engine = new GateEngine(store, api, {
    eventId: slot.eventId,
    slotId: slot.slotId,
    gate: 'North',
    deviceId: 'd1',
  });
  t = performance.now();
  await engine.start();
  const deviceMs = performance.now() - t;
  // A device reopening the gate page: the list comes back from IndexedDB, not the network.
  const reopened = new GateEngine(
    store,
    { ...api, sync: async () => ({ ...JSON.parse(json), tickets: [], feed: [] }) },
    engine.place,
  );
  t = performance.now();
  await reopened.start();
  const reloadMs = performance.now() - t;
  store.close();
  database.db.delete(bookings).where(eq(bookings.slotId, slot.slotId)).run();
  return {
    part: 'download + index slot',
    tickets: answer.tickets.length,
    jsonMB: +(json.length / 1e6).toFixed(2),
    serverMs: Math.round(serverMs),
    deviceStoreAndIndexMs: Math.round(deviceMs),
    deviceReopenMs: Math.round(reloadMs),
  };
}

async function localLookUp() {
  const tickets = new Map<
    string,
    { id: string; name: string; type: string; allowed: number; admitted: number; cancelled: boolean }
  >();
  for (let i = 0; i < 50_000; i++)
    tickets.set(`JB${i}`, {
      id: `JB${i}`,
      name: `Holder ${i}`,
      type: 'Gold',
      allowed: 2,
      admitted: i % 3,
      cancelled: false,
    });
  const rounds = 200_000;
  let t = performance.now();
  let admits = 0;
  for (let i = 0; i < rounds; i++) {
    const d = decideLocally({
      trusted: true,
      ticket: tickets.get(`JB${(i * 7) % 50_000}`) ?? null,
      persons: 1,
    });
    if (d.outcome === 'admit') admits++;
  }
  const lookUpMicros = ((performance.now() - t) * 1000) / rounds;
  const { ticketPublicKey } = await import('../src-server/services/tickets/ticket-token.ts');
  const publicKey = ticketPublicKey(SECRET);
  const tokens = Array.from({ length: 500 }, (_, i) => parseTicketToken(signTicketToken(SECRET, `JB${i}`))!);
  await verifyEd25519Token(publicKey, tokens[0]!);
  t = performance.now();
  let ok = 0;
  for (const token of tokens) if (await verifyEd25519Token(publicKey, token)) ok++;
  const verifyMicros = ((performance.now() - t) * 1000) / tokens.length;
  return {
    part: 'local look-up',
    listLookUpAndDecisionMicros: +lookUpMicros.toFixed(2),
    ed25519VerifyMicros: Math.round(verifyMicros),
    verified: `${ok}/${tokens.length}`,
    admitsSeen: admits > 0,
  };
}

/**
 * 5,000 people enter over 40 minutes through 8 gates. Each device alternates online and offline
 * periods (exponential, means below); online it pulls the feed every 3 s. 2 % of tickets are presented a
 * second time (a shared screenshot) at another random gate 0–10 minutes after the first. A double entry
 * happens when the second device admits: it is offline at that moment and has not yet learnt (via the
 * server) of the first admission, which the server itself only learns once the first device is online.
 */
function simulateDoubleEntries() {
  const rows = [];
  for (const [label, meanOffline, meanOnline, feed] of [
    ['mostly online (off 30 s / on 10 min), feed', 30, 600, true],
    ['patchy (off 2 min / on 2 min), feed', 120, 120, true],
    ['bad (off 10 min / on 1 min), feed', 600, 60, true],
    ['bad (off 10 min / on 1 min), list only, no feed', 600, 60, false],
  ] as const) {
    rows.push({ scenario: label, ...simulate(meanOffline, meanOnline, feed) });
  }
  return rows;
}

function simulate(meanOffline: number, meanOnline: number, feed: boolean) {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const exp = (mean: number) => -Math.log(1 - random()) * mean;
  const DEVICES = 8;
  const HORIZON = 40 * 60 + 900;
  // Online intervals per device: [start, end).
  const online: [number, number][][] = [];
  for (let d = 0; d < DEVICES; d++) {
    const spans: [number, number][] = [];
    let t = 0;
    let up = random() < meanOnline / (meanOnline + meanOffline);
    while (t < HORIZON) {
      const len = exp(up ? meanOnline : meanOffline);
      if (up) spans.push([t, t + len]);
      t += len;
      up = !up;
    }
    online.push(spans);
  }
  const isOnline = (d: number, t: number) => online[d]!.some(([a, b]) => a <= t && t < b);
  const nextOnline = (d: number, t: number) => {
    if (isOnline(d, t)) return t;
    const span = online[d]!.find(([a]) => a > t);
    return span ? span[0] : Number.POSITIVE_INFINITY;
  };
  // When device d, scanning at time t while offline, last pulled the feed (it pulls every 3 s online).
  const lastPull = (d: number, t: number) => {
    let last = Number.NEGATIVE_INFINITY;
    for (const [a, b] of online[d]!)
      if (a <= t) last = Math.max(last, Math.min(b, t) - ((Math.min(b, t) - a) % 3));
    return last;
  };
  const PEOPLE = 5000;
  let attempts = 0;
  let doubles = 0;
  const windows: number[] = [];
  for (let p = 0; p < PEOPLE; p++) {
    if (random() >= 0.02) continue;
    attempts++;
    const t1 = random() * 40 * 60;
    const d1 = Math.floor(random() * DEVICES);
    let d2 = Math.floor(random() * DEVICES);
    if (d2 === d1) d2 = (d2 + 1) % DEVICES;
    const t2 = t1 + random() * 600;
    // The server learns of the first admission when device 1 is next online.
    const serverKnows = nextOnline(d1, t1);
    if (isOnline(d2, t2)) {
      // Online: the server decides. It refuses if it already knows; if not (device 1 still offline), it admits.
      if (serverKnows > t2) {
        doubles++;
        windows.push(serverKnows - t1);
      }
      continue;
    }
    const knows = feed ? lastPull(d2, t2) >= serverKnows : false;
    if (!knows) {
      doubles++;
      windows.push(Math.min(serverKnows, HORIZON) - t1);
    }
  }
  windows.sort((a, b) => a - b);
  return {
    duplicateAttempts: attempts,
    doubleEntries: doubles,
    doubleEntryRate: `${((100 * doubles) / Math.max(1, attempts)).toFixed(1)} %`,
    medianWindowSeconds: Math.round(windows[Math.floor(windows.length / 2)] ?? 0),
  };
}

/** The invariant every gate benchmark reports: tickets let in more often than their persons allow (must be 0). */
function overAdmittedTickets(db: Db): number | undefined {
  return db
    .select({ n: sql<number>`count(*)` })
    .from(bookings)
    .where(sql`${bookings.numberOfUserCheckedIn} > ${bookings.totalUserAllowed}`)
    .get()?.n;
}
