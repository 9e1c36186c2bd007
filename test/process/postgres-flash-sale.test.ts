import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { runAsync } from '../../src-server/db/engine/steps.ts';
import { systemClock } from '../../src-server/deps.ts';
import { simulatePayment } from '../../src-server/integrations/simulator/gateway.ts';
import { inventoryOf } from '../helpers/engine-inventory.ts';
import { FAULT_APP_SECRET, type SignedResult, seededRandom, settledOrCut } from '../helpers/fault-process.ts';
import {
  type Fleet,
  type SignedInAccount,
  signedInBuyersOnPostgres,
  signedInWithRole,
  startFleet,
} from '../helpers/postgres-server-fleet.ts';
import {
  capturedPaymentsOnPostgres,
  eventually,
  expectEachPaymentSettledOnceOnPostgres,
  letTimePassOnPostgres,
  settledOnPostgres,
  unsettledOnPostgres,
} from '../helpers/postgres-settlement.ts';
import type { ServerProcess } from '../helpers/server-process.ts';
import { proceedInput, storefront } from '../helpers/storefront-http.ts';
import { type ScratchPostgres, scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { allowLocalServers } from '../mocks/server.ts';

// Issue 38: a flash sale on three real servers sharing one PostgreSQL, one of them killed with SIGKILL
// mid-sale and restarted. The seats are taken by conditional UPDATEs in PostgreSQL, not by one
// process's single writer, so only the database keeps three processes from selling a seat twice; and
// what the dead server left half-done (holds, payments nobody confirmed) is settled by the background
// jobs, each led by one of the living servers.
//
// The sale is 5,000 buyers for 500 seats. At that size the file takes 28 s on a quiet 2-core
// machine and took 65 s beside other work (the process budget is 60 s per file), so `npm test` runs a
// tenth of the seats with ten
// buyers each, as the ratio: PG_FLASH_SALE_BUYERS=5000 runs the full size, which CI does once
// in a leg of its own (.ci/run; `npm run bench -- flash-sale` runs 5,000 for 500 too, on either engine).

const serverUrl = testPostgresUrl('postgres-flash-sale.test.ts');

const SERVERS = 3;
const BUYERS = Number(process.env.PG_FLASH_SALE_BUYERS ?? 1_500);
const SEATS = BUYERS / 10;
/** Buyers on their way at once (each a request chain: Proceed, Pay, confirm). */
const IN_FLIGHT = 60;
/** The kill lands once this many buyers have had Proceed answered: seats still on sale, many in flight. */
const KILL_AFTER = Math.round(SEATS / 2);
/** Held buyers who pay after the kill while no callback nor webhook reaches anyone: the reconciler's work. */
const PAID_UNSEEN = 5;
/** A buyer's attempts at Proceed or confirm whose request was cut, each on the next server. */
const ATTEMPTS = SERVERS;

/** What Proceed answers when the seats are gone (the organiser API's one ticket type is Gold). */
const SOLD_OUT_ANSWERS = ['Gold: Sold Out', 'Insufficient tickets available for Gold'];

interface Answer {
  status: number;
  data?: unknown;
  error?: { message: string };
}

beforeEach(allowLocalServers);

describe.skipIf(serverUrl === undefined)('a flash sale on three servers sharing PostgreSQL', () => {
  let database: ScratchPostgres;
  /** The test's own pool on the servers' database: rows set up directly, and what the servers wrote. */
  let db: PgDb;
  let fleet: Fleet;
  beforeAll(async () => {
    database = await scratchPostgres(serverUrl!, 'jalsa_flash');
    db = await openPostgres(database.url, { poolSize: 4 });
    // Each server: a pool of 4 (DATABASE_POOL_SIZE), every job every 200 ms; its log at warn, as the
    // sale's thousands of requests are not what this test reads there.
    fleet = await startFleet(SERVERS, database.url, { LOG_LEVEL: 'warn' });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(fleet?.servers.map((server) => server.kill()) ?? []);
    await db?.$client.end();
    await database?.drop({ waitForClosing: true });
  });

  it('sells exactly the seats there are, one server killed mid-sale, and settles every payment once', async () => {
    const organiser = await signedInWithRole(db, 'organiser');
    const first = fleet.servers[0]!;
    const site = storefront((p, init) => fetch(`${first.baseURL}${p}`, init), first.baseURL);
    const event = await site.publishEvent(organiser, 'Flash Night', 'Pune', new Date(), SEATS);
    const buyers = await signedInBuyersOnPostgres(db, BUYERS);
    const random = seededRandom(38);

    /** Every answer a living server gave (a cut request has none): none may be a 5xx. */
    const answers: { server: number; what: string; status: number; body?: unknown }[] = [];
    let proceedsAnswered = 0;
    let killed: { index: number; restarted: Promise<ServerProcess> } | undefined;

    /** The next server from `i` that is running (the killed one leaves the rotation until it is back). */
    function serverFrom(i: number): { index: number; server: ServerProcess } {
      for (let k = 0; k < SERVERS; k += 1) {
        const index = (i + k) % SERVERS;
        if (fleet.alive(index)) return { index, server: fleet.servers[index]! };
      }
      throw new Error('no server running');
    }

    /**
     * One request to the buyer's server; if the server dies under it (no answer), again on the next
     * living one, up to `attempts` in all.
     */
    async function call(
      startAt: number,
      what: string,
      send: (server: ServerProcess) => Promise<Response>,
      attempts = ATTEMPTS,
    ): Promise<Answer | 'cut'> {
      for (let attempt = 0; attempt < attempts; attempt += 1) {
        const { index, server } = serverFrom(startAt + attempt);
        const answer = await settledOrCut(
          send(server).then(async (res) => ({ status: res.status, body: await res.json() })),
        );
        if (answer === 'cut') {
          cut += 1;
          continue;
        }
        answers.push({ server: index, what, status: answer.status, body: answer.body });
        const body = answer.body as { result?: { data: unknown }; error?: { message: string } };
        return { status: answer.status, data: body.result?.data ?? body, error: body.error };
      }
      return 'cut';
    }

    const trpc = (procedure: string, input: unknown, cookie: string) => (server: ServerProcess) =>
      fetch(`${server.baseURL}/trpc/${procedure}`, {
        method: 'POST',
        headers: { cookie, origin: server.baseURL, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });

    interface Journey {
      buyer: SignedInAccount;
      quantity: number;
      start?: Answer | 'cut';
      orderId?: string;
      paid?: Answer | 'cut';
      confirmed?: Answer | 'cut';
    }

    async function journey(buyer: SignedInAccount, i: number): Promise<Journey> {
      const quantity = random() < 0.8 ? 1 : 2;
      const j: Journey = { buyer, quantity };
      j.start = await call(
        i,
        'payments.start',
        trpc('payments.start', proceedInput(event, quantity), buyer.cookie),
      );
      proceedsAnswered += 1;
      if (proceedsAnswered === KILL_AFTER) {
        // Pull the plug on one server with everything it has in flight, and bring it back on the same
        // database (as a supervisor would); meanwhile its buyers go to the others.
        const index = i % SERVERS;
        killed = { index, restarted: fleet.restart(index) };
      }
      if (j.start === 'cut' || j.start.status !== 200) return j;
      j.orderId = (j.start.data as { orderId: string }).orderId;
      if (killed && j.orderId && unseen.length < PAID_UNSEEN) {
        // Closed the tab after paying: the gateway has the money, no callback nor webhook tells us.
        unseen.push(j.orderId);
        return j;
      }
      // The payment window is the gateway's: a Pay cut off is not pressed again (Razorpay takes no second
      // payment on an order once paid). Whether the money was taken is for the reconciler to find out.
      j.paid = await call(
        i,
        'pay',
        (server) =>
          fetch(`${server.baseURL}/api/simulator/orders/${j.orderId}/pay`, {
            method: 'POST',
            headers: { cookie: buyer.cookie, origin: server.baseURL },
          }),
        1,
      );
      if (j.paid === 'cut' || j.paid.status !== 200) return j;
      const paid = j.paid.data as SignedResult;
      j.confirmed = await call(
        i,
        'payments.confirm',
        trpc(
          'payments.confirm',
          {
            orderId: paid.razorpay_order_id,
            paymentId: paid.razorpay_payment_id,
            signature: paid.razorpay_signature,
          },
          buyer.cookie,
        ),
      );
      return j;
    }
    const unseen: string[] = [];
    /** Requests that got no answer: the server died under them (or was dead when they were sent). */
    let cut = 0;

    const journeys: Journey[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < BUYERS) {
          const i = next++;
          journeys.push(await journey(buyers[i]!, i));
        }
      }),
    );
    expect(killed, 'the kill happened').toBeDefined();
    expect(cut, 'requests the kill cut off').toBeGreaterThan(0);
    await killed!.restarted;
    for (const orderId of unseen) {
      await simulatePayment(
        { db: db as unknown as Db, clock: systemClock, appSecret: FAULT_APP_SECRET },
        orderId,
      );
    }
    expect(unseen).toHaveLength(PAID_UNSEEN);

    // Zero server errors from a living server, on any step of any buyer.
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const booked = journeys.filter((j) => j.confirmed && j.confirmed !== 'cut' && j.confirmed.status === 200);
    expect(booked.length).toBeGreaterThan(0);
    // Buyers were told of no more seats than there are.
    expect(booked.reduce((sum, j) => sum + j.quantity, 0)).toBeLessThanOrEqual(SEATS);
    // Every refusal at Proceed is the spec's sold-out answer.
    const refused = journeys.filter((j) => j.start && j.start !== 'cut' && j.start.status !== 200);
    expect(refused.length).toBeGreaterThan(BUYERS / 2);
    for (const j of refused) {
      const start = j.start as Answer;
      expect(start.status, JSON.stringify(start)).toBe(409);
      expect(SOLD_OUT_ANSWERS).toContain(start.error?.message);
    }

    // Never more sold than there is, at any moment: here, just after the sale.
    await expectInventory(db, event.ticketTypeId);

    // Every booking a buyer was told of is in the database, once.
    const bookingIds = new Set(
      (await db.$client.query<{ id: string }>('select id from bookings')).rows.map((b) => b.id),
    );
    for (const j of booked)
      expect(bookingIds.has((j.confirmed as { data: { bookingId: string } }).data.bookingId)).toBe(true);
    const capturedBefore = (await capturedPaymentsOnPostgres(db)).length;
    expect(capturedBefore).toBeGreaterThanOrEqual(booked.length + PAID_UNSEEN);

    // Ten minutes pass: the holds of buyers who were cut off or never paid expire, and the payments
    // nobody confirmed (the five paid unseen, any whose confirm died with the server) are reconciled:
    // booked if the seats can be taken again, else refunded. The jobs run on whichever server leads each.
    await letTimePassOnPostgres(db, 10 * 60_000);
    await eventually(
      () => settledOnPostgres(db),
      'the sweeper and the reconciler to settle every hold and payment',
      async () => `${await unsettledOnPostgres(db)}\n${fleet.servers.map((s) => s.output()).join('\n')}`,
    );
    await expectEachPaymentSettledOnceOnPostgres(db);
    expect((await capturedPaymentsOnPostgres(db)).length).toBe(capturedBefore);
    const settledCount = await expectInventory(db, event.ticketTypeId);
    expect(settledCount.held).toBe(0);

    // The seats freed by expired holds sell to the buyers still waiting, over the restarted fleet, until
    // the sale is sold out at exactly SEATS: one seat each, then every later Proceed hears Sold Out.
    const waiting = await signedInBuyersOnPostgres(db, settledCount.available + 3, 'late');
    let lateBooked = 0;
    for (const [k, buyer] of waiting.entries()) {
      const server = fleet.servers[k % SERVERS]!;
      const late = storefront((p, init) => fetch(`${server.baseURL}${p}`, init), server.baseURL);
      const bought = await late.buy(buyer.cookie, event, 1);
      expect(bought.started.status, JSON.stringify(bought.started.error)).toBeLessThan(500);
      if (bought.confirmed?.data.outcome === 'booked') lateBooked += 1;
      else expect(SOLD_OUT_ANSWERS).toContain(bought.started.error?.message);
    }
    expect(lateBooked).toBe(settledCount.available);
    const soldOut = await expectInventory(db, event.ticketTypeId);
    expect(soldOut).toMatchObject({ total: SEATS, sold: SEATS, available: 0 });
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
  }, 120_000);
});

/** available + active holds + sold = total, and sold ≤ total. */
async function expectInventory(db: PgDb, ticketTypeId: string) {
  const [count] = await runAsync(inventoryOf(db as unknown as Db, [ticketTypeId]), db);
  expect(count!.available + count!.held + count!.sold, JSON.stringify(count)).toBe(count!.total);
  expect(count!.sold).toBeLessThanOrEqual(count!.total);
  expect(count!.available).toBeGreaterThanOrEqual(0);
  return count!;
}
