import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src-server/db/client.ts';
import { bookings } from '../../src-server/db/schema/bookings.ts';
import { holds, refunds, simulatorPayments } from '../../src-server/db/schema/payments.ts';
import { systemClock } from '../../src-server/deps.ts';
import { simulatePayment } from '../../src-server/integrations/simulator/gateway.ts';
import {
  allPaymentsSettled,
  confirmOn,
  expectEachPaymentSettledOnce,
  FAULT_APP_SECRET,
  faultDataDir,
  killAllServers,
  killHard,
  letTimePass,
  type ProcedureAnswer,
  proceedOn,
  type SignedResult,
  seededRandom,
  settledOrCut,
  signedInBuyer,
  startFaultServer,
  waitUntil,
} from '../helpers/fault-process.ts';
import {
  countOf,
  createTicketedEvent,
  expectInventoryInvariant,
  inventoryCounts,
} from '../helpers/inventory.ts';
import type { ServerProcess } from '../helpers/server-process.ts';

const BUYERS = 120;
/** Buyers who arrive at the instant of the crash (see the test). */
const LATECOMERS = 10;
const TYPES = [
  { name: 'Early Bird', pricePaise: 49_900, totalTickets: 40 },
  { name: 'Gold Circle', pricePaise: 99_999, totalTickets: 25 },
  { name: 'Fan Pit', pricePaise: 250_000, totalTickets: 10 },
];

/**
 * Issue 7, Faults: a flash sale on the real server process, killed with SIGKILL half-way through, then
 * restarted on the same database ten minutes later. Every answer a buyer got is in the database, no
 * ticket type is oversold at any point, and once the sweeper and the reconciler have run every seat is
 * either sold or back on sale.
 */
interface Journey {
  buyer: ReturnType<typeof signedInBuyer> & { typeIndex: number; quantity: number; pays: boolean };
  start: ProcedureAnswer | 'cut';
  confirmed?: ProcedureAnswer | 'cut';
}

describe('kill -9 during a flash sale, then restart', () => {
  let scratch: ReturnType<typeof faultDataDir>;
  let database: DatabaseHandle;
  let server: ServerProcess;

  beforeAll(async () => {
    scratch = faultDataDir();
    database = scratch.database;
    server = await startFaultServer(scratch.dataDir);
  }, 60_000);

  afterAll(async () => {
    await killAllServers();
    scratch?.remove();
  });

  it('keeps the inventory invariant for every ticket type and sells no seat twice', async () => {
    const ev = createTicketedEvent(database.db, { now: new Date(), types: TYPES });
    const random = seededRandom(7);
    const buyers = Array.from({ length: BUYERS }, () => ({
      ...signedInBuyer(database),
      typeIndex: Math.floor(random() * TYPES.length),
      quantity: 1 + Math.floor(random() * 4),
      pays: random() < 0.3,
    }));

    let answered = 0;
    let killed: Promise<void> | undefined;
    // The last buyers send their Proceed just as the plug is pulled. Without them, a server that answers
    // a whole burst in one group commit could leave nothing in flight when the kill lands, and the crash
    // would cut nobody off (seen on a quiet machine).
    const latecomers = buyers.slice(BUYERS - LATECOMERS);
    let lateJourneys: Promise<Journey>[] = [];
    const journey = async (buyer: (typeof buyers)[number]): Promise<Journey> => {
      const start = await settledOrCut(proceedOn(server, buyer.cookie, ev, buyer.quantity, buyer.typeIndex));
      answered += 1;
      // Half of the first buyers have had an answer: pull the plug on everything else in flight.
      if (answered === (BUYERS - LATECOMERS) / 2) {
        lateJourneys = latecomers.map(journey);
        killed = killHard(server);
      }
      if (start === 'cut' || start.status !== 200 || !buyer.pays) return { buyer, start };
      const { orderId } = start.data as { orderId: string };
      const paid = await settledOrCut(payInWindow(server, orderId));
      if (paid === 'cut') return { buyer, start };
      const confirmed = await settledOrCut(confirmOn(server, buyer.cookie, paid));
      return { buyer, start, confirmed };
    };
    const firstResults = await Promise.all(buyers.slice(0, BUYERS - LATECOMERS).map(journey));
    const results = [...firstResults, ...(await Promise.all(lateJourneys))];
    await killed;
    expect(results).toHaveLength(BUYERS);

    // Some buyers were answered, some were cut off mid-request.
    const held = results.filter((r) => r.start !== 'cut' && r.start.status === 200);
    const refused = results.filter((r) => r.start !== 'cut' && r.start.status !== 200);
    expect(held.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.start === 'cut').length).toBeGreaterThan(0);
    for (const r of refused) {
      const name = TYPES[r.buyer.typeIndex]!.name;
      expect([`${name}: Sold Out`, `Insufficient tickets available for ${name}`]).toContain(
        (r.start as ProcedureAnswer).error?.message,
      );
    }

    // Everything a buyer was told survived the crash: each hold they got, each booking they saw.
    const holdIds = new Set(
      database.db
        .select({ id: holds.id })
        .from(holds)
        .all()
        .map((h) => h.id),
    );
    for (const r of held)
      expect(holdIds.has((r.start as { data: { holdId: string } }).data.holdId)).toBe(true);
    const bookingIds = new Set(
      database.db
        .select({ id: bookings.id })
        .from(bookings)
        .all()
        .map((b) => b.id),
    );
    for (const r of results) {
      const confirmed = r.confirmed;
      if (confirmed && confirmed !== 'cut' && confirmed.status === 200) {
        expect(bookingIds.has((confirmed.data as { bookingId: string }).bookingId)).toBe(true);
      }
    }
    expectInventoryInvariant(database.db, ev.ticketTypeIds);

    // While the server is down, three buyers who were still in the payment window pay: the gateway
    // captures the money, but their callbacks and the webhooks find nobody.
    const unpaid = held.filter((r) => !r.buyer.pays).slice(0, 3);
    expect(unpaid).toHaveLength(3);
    for (const r of unpaid) {
      const { orderId } = (r.start as { data: { orderId: string } }).data;
      await simulatePayment({ db: database.db, clock: systemClock, appSecret: FAULT_APP_SECRET }, orderId);
    }

    // Every payment the gateway captured before the restart must end as exactly one booking or refund:
    // those booked before the crash, those paid but cut off before their confirmation (how many depends
    // on timing), and the three paid while the server was down.
    const captured = database.db
      .select({ id: simulatorPayments.id })
      .from(simulatorPayments)
      .where(inArray(simulatorPayments.status, ['captured', 'refunded']))
      .all().length;
    expect(captured).toBeGreaterThanOrEqual(bookingIds.size + 3);

    // Ten minutes later: every hold has expired. The sweeper puts unpaid seats back on sale and the
    // reconciler books (re-taking the seats) or refunds the payments nobody confirmed.
    letTimePass(database, 10 * 60_000);
    server = await startFaultServer(scratch.dataDir);
    await waitUntil(
      () =>
        database.db
          .select({ status: holds.status })
          .from(holds)
          .all()
          .every((h) => h.status !== 'active') && allPaymentsSettled(database),
      'the sweeper and the reconciler to finish',
      () => server.output(),
    );
    expectInventoryInvariant(database.db, ev.ticketTypeIds);
    expectEachPaymentSettledOnce(database);
    // Each captured payment ended as one booking or one refund, and every pre-crash booking is still there.
    const finalBookings = new Set(
      database.db
        .select({ id: bookings.id })
        .from(bookings)
        .all()
        .map((b) => b.id),
    );
    const outcomes = finalBookings.size + database.db.select().from(refunds).all().length;
    expect(outcomes).toBe(captured);
    for (const id of bookingIds) expect(finalBookings.has(id)).toBe(true);
    for (const c of inventoryCounts(database.db).filter((x) => ev.ticketTypeIds.includes(x.ticketTypeId))) {
      expect(c.held).toBe(0);
      expect(c.sold).toBeLessThanOrEqual(c.total);
      expect(c.available).toBe(c.total - c.sold);
    }

    // The restarted server sells what is left as usual.
    const open = ev.ticketTypeIds.findIndex((id) => countOf(database.db, id).available > 0);
    expect(open).toBeGreaterThanOrEqual(0);
    const late = signedInBuyer(database);
    const again = await proceedOn(server, late.cookie, ev, 1, open);
    expect(again.status).toBe(200);
    expectInventoryInvariant(database.db, ev.ticketTypeIds);
  }, 90_000);
});

/** The buyer presses Pay in the simulator's window (its webhooks follow from the server itself). */
async function payInWindow(server: ServerProcess, orderId: string): Promise<SignedResult> {
  const res = await fetch(`${server.baseURL}/api/simulator/orders/${orderId}/pay`, { method: 'POST' });
  expect(res.status).toBe(200);
  return (await res.json()) as SignedResult;
}
