import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src-server/app-env.ts';
import { appSecretFor, StartupRefusal } from '../../src-server/app-secret.ts';
import type { Db } from '../../src-server/db/client.ts';
import { openPostgres, type PgDb } from '../../src-server/db/engine/postgres.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { events } from '../../src-server/db/schema/catalog.ts';
import { DEMO_AUDIENCE } from '../../src-server/db/seed/demo-sales.ts';
import { seedDemoData } from '../../src-server/db/seed/seed.ts';
import type { AppDeps, Clock } from '../../src-server/deps.ts';
import { databasePing, HEALTHY, healthCheckFastPath } from '../../src-server/http/health-check.ts';
import { publicQueryCache } from '../../src-server/http/public-query-cache.ts';
import { requestContext } from '../../src-server/http/request-context.ts';
import { createRazorpayGateway } from '../../src-server/integrations/razorpay/gateway.ts';
import {
  createSimulatorGateway,
  simulatePayment,
  simulatorPaymentEntity,
  simulatorSecrets,
} from '../../src-server/integrations/simulator/gateway.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { createLogger } from '../../src-server/logger.ts';
import { registerDueEInvoices } from '../../src-server/services/invoices/register-e-invoices.ts';
import type { PaymentGateway } from '../../src-server/services/payments/gateway.ts';
import { reconcileOpenOrders } from '../../src-server/services/payments/reconcile.ts';
import { hmacSha256Hex } from '../../src-server/services/payments/signatures.ts';
import { handleWebhook } from '../../src-server/services/payments/webhook-events.ts';
import { proceed } from '../helpers/checkout-flow.ts';
import { createAccount } from '../helpers/console-world.ts';
import { createTicketedEvent, DETAILS } from '../helpers/inventory.ts';
import { moveToScratchPostgres } from '../helpers/moved-installation.ts';
import { buyTickets } from '../helpers/organiser-bookings.ts';
import { saveTaxProfile } from '../helpers/tax-profile.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { type ScratchPostgres, scratchPostgres, testPostgresUrl } from '../helpers/test-postgres.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';
import { mswServer } from '../mocks/server.ts';

// ADR 0045, issue 38: the payments around the confirmation (the webhook's delivery record, the
// reconciler, the simulator gateway), the e-invoicing job and the infrastructure below the composition
// root (health check, app secret, public cache) on both engines, from one installation made by the app on
// SQLite and, for PostgreSQL, moved there. On PostgreSQL two pools stand for two app servers: each of the
// races below is two servers doing the same job at once.

const IRP = 'https://irp.example.test';
const IRN = 'a5c12dca80e743321740b001fd70953e8738d109865d28ba4013750f2046f229';
const BUYER = {
  ...DETAILS,
  buyerGstin: '29AAGCB7383J1Z4',
  buyerLegalName: 'Kaveri Events Pvt Ltd',
  buyerAddress: '80 Feet Road, Indiranagar, Bengaluru 560038',
};
const B2B_BOOKINGS = 4;
const RECONCILED_ORDERS = 6;
const RAZORPAY = 'https://api.razorpay.com/v1';
const RAZORPAY_KEYS = { keyId: 'rzp_test_abc123', keySecret: 'key_secret_xyz', webhookSecret: 'whsec_789' };

interface World {
  t: TestApp;
  /** An order paid at the gateway and not reported yet: its webhook is delivered to two servers. */
  webhookOrder: string;
  /** Orders paid at the gateway whose callback and webhooks were all lost: the reconciler's. */
  lostOrders: string[];
  /** B2B tax invoices of an organiser under e-invoicing, none registered yet. */
  b2bInvoices: string[];
  /** A booked order whose gateway (msw's Razorpay, in its test) also holds a second captured payment. */
  strayOrder: { orderId: string; bookedPaymentId: string; amountPaise: number };
}

const serverUrl = testPostgresUrl('engine-payments-jobs.test.ts');
let world: World;
let target: ScratchPostgres | undefined;

beforeAll(async () => {
  world = await buildInstallation();
  if (serverUrl) {
    target = await moveToScratchPostgres(world.t, serverUrl, 'jalsa_payments_jobs');
  }
}, 60_000);

afterAll(async () => {
  await target?.drop({ waitForClosing: true });
  world?.t.close();
});

/** The app's database on each engine: `db(1)` is the second server's pool on PostgreSQL. */
interface Engine {
  db: (server?: number) => Db;
  close: () => Promise<void>;
}

const engines: [string, () => Promise<Engine>][] = [
  ['SQLite', async () => ({ db: () => world.t.deps.db, close: async () => {} })],
];
if (serverUrl) {
  engines.push([
    'PostgreSQL',
    async () => {
      const pools: PgDb[] = [
        await openPostgres(target!.url, { poolSize: 4 }),
        await openPostgres(target!.url, { poolSize: 4 }),
      ];
      return {
        db: (server = 0) => pools[server % 2] as unknown as Db,
        close: async () => {
          for (const pool of pools) await pool.$client.end();
        },
      };
    },
  ]);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(engines)('payments, jobs and infrastructure, on %s', (name, open) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await open();
  });
  afterAll(() => engine?.close());

  /**
   * One app server's dependencies on this engine: its database, its simulator gateway on that database
   * (each call counted, and slowed a little so two servers' calls overlap), and `clock`.
   */
  function server(index: number, clock: Clock = world.t.clock, calls: string[] = []): AppDeps {
    const db = engine.db(index);
    const real = createSimulatorGateway({ db, clock, appSecret: world.t.deps.appSecret });
    const gateway: PaymentGateway = {
      ...real,
      async fetchOrderPayments(orderId) {
        calls.push(`fetch ${orderId}`);
        await pause(5);
        return real.fetchOrderPayments(orderId);
      },
      async capturePayment(paymentId, amountPaise, currency) {
        calls.push(`capture ${paymentId}`);
        await pause(5);
        return real.capturePayment(paymentId, amountPaise, currency);
      },
    };
    return { ...world.t.deps, db, clock, paymentGateway: gateway };
  }

  it('records a webhook event delivered to two servers at once once, and acts on it once', async () => {
    const db = engine.db();
    const { bookings, webhookEvents } = tablesOf(db);
    const [payment] = await server(0).paymentGateway!.fetchOrderPayments(world.webhookOrder);
    const entity = await simulatorPaymentEntity(db, payment!.id);
    // payment.authorized: the app captures it (a gateway call) before settling, so acting is counted.
    const body = JSON.stringify({ event: 'payment.authorized', payload: { payment: { entity } } });
    const signature = hmacSha256Hex(simulatorSecrets(world.t.deps.appSecret).webhookSecret, body);
    const calls: string[] = [];
    const deliver = (index: number) =>
      handleWebhook(server(index, world.t.clock, calls), body, signature, 'evt_race');

    const results = await Promise.all([deliver(0), deliver(1)]);
    expect(results.filter((r) => r.status === 'processed')).toHaveLength(1);
    expect(results.map((r) => r.status).sort()).toEqual(['duplicate', 'processed']);
    expect(calls).toEqual([`capture ${payment!.id}`]);
    expect(await deliver(1)).toEqual({ status: 'duplicate' });

    const recorded = await db.select().from(webhookEvents).where(eq(webhookEvents.id, 'evt_race'));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.processedAt).not.toBeNull();
    expect(await db.select().from(bookings).where(eq(bookings.paymentId, payment!.id))).toHaveLength(1);
  });

  it('two reconcilers racing over paid but unconfirmed orders ask about and confirm each once', async () => {
    const db = engine.db();
    const { bookings, paymentOrders, refunds } = tablesOf(db);
    // Past the minute the reconciler leaves to the callback and the webhook.
    const later: Clock = {
      now: () => new Date(world.t.clock.now().getTime() + 2 * 60_000),
      sleep: (ms) => world.t.clock.sleep(ms),
    };
    const calls: string[] = [];
    const reports = await Promise.all([
      reconcileOpenOrders(server(0, later, calls)),
      reconcileOpenOrders(server(1, later, calls)),
    ]);

    const asked = calls.filter((c) => c.startsWith('fetch ')).map((c) => c.slice('fetch '.length));
    // Each order asked about once, whichever server claimed it: the open ones, and the paid ones whose
    // captured payments the reconciler checks are all accounted for.
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked).toEqual(expect.arrayContaining(world.lostOrders));
    expect(reports[0]!.paymentsSettled + reports[1]!.paymentsSettled).toBe(RECONCILED_ORDERS);
    const booked = await db.select().from(bookings).where(inArray(bookings.orderId, world.lostOrders));
    expect(booked).toHaveLength(RECONCILED_ORDERS);
    expect(new Set(booked.map((b) => b.orderId)).size).toBe(RECONCILED_ORDERS);
    const orders = await db.select().from(paymentOrders).where(inArray(paymentOrders.id, world.lostOrders));
    expect(orders.every((o) => o.status === 'paid')).toBe(true);
    expect(await db.select().from(refunds).where(inArray(refunds.orderId, world.lostOrders))).toEqual([]);
  });

  it("refunds once a booked order's second captured payment whose webhook never arrived", async () => {
    const db = engine.db();
    const { bookings, refunds } = tablesOf(db);
    const { orderId, bookedPaymentId, amountPaise } = world.strayOrder;
    // Real Razorpay can, rarely, capture two payments on one order (a late UPI success): the booking
    // took one, the other's webhooks were lost with the server that would have received them.
    const stray = 'pay_RzpStray00001';
    const captured = (id: string) => ({
      id,
      entity: 'payment',
      order_id: orderId,
      amount: amountPaise,
      currency: 'INR',
      status: 'captured',
      amount_refunded: 0,
    });
    const refundCalls: string[] = [];
    mswServer.use(
      http.get(`${RAZORPAY}/orders/${orderId}/payments`, () =>
        HttpResponse.json({
          entity: 'collection',
          count: 2,
          items: [captured(bookedPaymentId), captured(stray)],
        }),
      ),
      http.get(`${RAZORPAY}/orders/:orderId/payments`, () =>
        HttpResponse.json({ entity: 'collection', count: 0, items: [] }),
      ),
      http.post(`${RAZORPAY}/payments/${stray}/refund`, () => {
        refundCalls.push(stray);
        return HttpResponse.json({
          id: 'rfnd_RzpStray00001',
          entity: 'refund',
          amount: amountPaise,
          payment_id: stray,
          status: 'processed',
        });
      }),
    );
    const razorpay = createRazorpayGateway(RAZORPAY_KEYS);
    const hoursLater = (hours: number): Clock => ({
      now: () => new Date(world.t.clock.now().getTime() + hours * 60 * 60_000),
      sleep: (ms) => world.t.clock.sleep(ms),
    });
    const on = (index: number, clock: Clock): AppDeps => ({
      ...world.t.deps,
      db: engine.db(index),
      clock,
      paymentGateway: razorpay,
    });

    // Two servers' reconcilers at once, then a later round that asks about the order again.
    await Promise.all([reconcileOpenOrders(on(0, hoursLater(7))), reconcileOpenOrders(on(1, hoursLater(7)))]);
    await reconcileOpenOrders(on(1, hoursLater(14)));

    expect(refundCalls).toEqual([stray]);
    expect(await db.select().from(refunds).where(eq(refunds.orderId, orderId))).toMatchObject([
      { paymentId: stray, amountPaise, reason: 'duplicate_payment', status: 'processed' },
    ]);
    const booked = await db.select().from(bookings).where(eq(bookings.orderId, orderId));
    expect(booked.map((b) => b.paymentId)).toEqual([bookedPaymentId]);
  });

  it('two e-invoicing jobs racing register each invoice with the IRP once', async () => {
    const db = engine.db();
    const { eInvoiceRegistrations } = tablesOf(db);
    const sent: string[] = [];
    mswServer.use(
      http.post(`${IRP}/eicore/v1.03/Invoice`, async ({ request }) => {
        const payload = (await request.json()) as { DocDtls: { No: string } };
        sent.push(payload.DocDtls.No);
        await pause(10);
        return HttpResponse.json({
          Status: 1,
          Data: {
            AckNo: 112610036563310 + sent.length,
            AckDt: '2026-11-21 12:05:00',
            Irn: `${IRN.slice(0, -4)}${String(sent.length).padStart(4, '0')}`,
            SignedInvoice: 'eyJ.signed.invoice',
            SignedQRCode: 'eyJ.signed.qr',
            Status: 'ACT',
          },
        });
      }),
    );
    const job = (index: number) => registerDueEInvoices({ ...world.t.deps, db: engine.db(index) });
    const tried = await Promise.all([job(0), job(1)]);

    expect(tried[0]! + tried[1]!).toBe(B2B_BOOKINGS);
    expect(sent).toHaveLength(B2B_BOOKINGS);
    expect(new Set(sent).size).toBe(B2B_BOOKINGS);
    const registrations = await db
      .select()
      .from(eInvoiceRegistrations)
      .where(inArray(eInvoiceRegistrations.invoiceId, world.b2bInvoices));
    expect(registrations).toHaveLength(B2B_BOOKINGS);
    expect(registrations.map((r) => [r.status, r.attempts, r.lastError])).toEqual(
      registrations.map(() => ['registered', 1, null]),
    );
  });

  it('the health check pings this engine, and falls through to the stack when it does not answer', async () => {
    const probe = (ping: ReturnType<typeof databasePing>) => {
      const app = new Hono<AppEnv>();
      app.use('/healthz', healthCheckFastPath(ping, secureHeaders()));
      app.get('/healthz', (c) => c.json({ status: 'down' }, 503));
      return app.request('/healthz');
    };
    const healthy = await probe(databasePing({ db: engine.db(), sqlite: world.t.deps.sqlite }));
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual(HEALTHY);

    // A database that does not answer: the ping fails and the stack answers (and logs) it.
    const down = await downDatabase(name);
    try {
      expect((await probe(databasePing(down.deps))).status).toBe(503);
    } finally {
      await down.close();
    }
  });

  it("reads and checks the app secret's fingerprint", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'jalsa-secret-'));
    try {
      const options = { dataDir, now: world.t.clock.now() };
      expect(await appSecretFor(engine.db(), { ...options, configured: world.t.deps.appSecret })).toBe(
        world.t.deps.appSecret,
      );
      await expect(appSecretFor(engine.db(1), { ...options, configured: 'another-secret' })).rejects.toThrow(
        StartupRefusal,
      );
      // No APP_SECRET and no app-secret file beside a database that has one: refused, nothing generated.
      await expect(appSecretFor(engine.db(), options)).rejects.toThrow('is missing');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("caches the catalogue's lists until its version moves", async () => {
    const db = engine.db();
    let computed = 0;
    const app = new Hono<AppEnv>();
    app.use(requestContext(createLogger('silent')));
    app.use('/trpc/*', publicQueryCache({ db, sqlite: world.t.deps.sqlite, clock: world.t.clock }));
    app.get('/trpc/*', (c) => {
      computed += 1;
      return c.json({ computed });
    });
    const list = () => app.request('/trpc/events.list?input=%7B%7D');
    await list();
    await list();
    expect(computed).toBe(1);
    const moveVersion = sql`update catalog_version set version = version + 1 where id = 1`;
    if (name === 'SQLite') db.run(moveVersion);
    else await (db as unknown as PgDb).execute(moveVersion);
    await list();
    expect(computed).toBe(2);
  });
});

describe.each(engines.map(([name]) => name))('the demo seed, on %s', (name) => {
  it('fills an empty database once: published events, sold-out types sold to demo bookings', async () => {
    const empty = await emptyDatabase(name);
    try {
      const { bookings, events, ticketTypes } = tablesOf(empty.db);
      expect(await seedDemoData(empty.db, world.t.clock)).toBeGreaterThanOrEqual(24);
      expect(await seedDemoData(empty.db, world.t.clock)).toBe(0);
      const seeded = await empty.db.select().from(events);
      expect(seeded.length).toBeGreaterThanOrEqual(24);
      expect(seeded.every((e) => e.status === 'published')).toBe(true);
      const types = await empty.db.select().from(ticketTypes);
      const soldOut = types.filter((type) => type.totalTickets > 0 && type.availableTickets === 0);
      expect(soldOut.length).toBeGreaterThan(0);
      const sold = await empty.db.select().from(bookings).where(eq(bookings.userId, DEMO_AUDIENCE.id));
      for (const type of soldOut) {
        const booked = sold.filter((b) => b.ticketType.id === type.id).reduce((n, b) => n + b.ticketCount, 0);
        expect(booked).toBe(type.totalTickets);
      }
    } finally {
      await empty.close();
    }
  }, 60_000);
});

/** A new database of this engine with no data: a fresh app's SQLite, a scratch PostgreSQL. */
async function emptyDatabase(engineName: string): Promise<{ db: Db; close: () => Promise<void> }> {
  if (engineName === 'SQLite') {
    const fresh = createTestApp();
    return { db: fresh.deps.db, close: async () => fresh.close() };
  }
  const scratch = await scratchPostgres(serverUrl!, 'jalsa_seed');
  const pool = await openPostgres(scratch.url, { poolSize: 2 });
  return {
    db: pool as unknown as Db,
    close: async () => {
      await pool.$client.end();
      await scratch.drop({ waitForClosing: true });
    },
  };
}

/** A database of this engine that does not answer: a closed SQLite connection, an ended pool. */
async function downDatabase(engineName: string) {
  if (engineName === 'SQLite') {
    const closed = createTestApp();
    closed.close();
    return { deps: { db: closed.deps.db, sqlite: closed.deps.sqlite }, close: async () => {} };
  }
  const pool = await openPostgres(target!.url, { poolSize: 1 });
  await pool.$client.end();
  return { deps: { db: pool as unknown as Db, sqlite: world.t.deps.sqlite }, close: async () => {} };
}

/** The installation, made by the app's own procedures on SQLite. */
async function buildInstallation(): Promise<World> {
  const t = createTestApp({
    SEED_DEMO_DATA: 'false',
    EINVOICE_IRP_URL: IRP,
    EINVOICE_IRP_TOKEN: 'gsp-token-1',
  });
  await appSecretFor(t.deps.db, { configured: t.deps.appSecret, dataDir: t.dataDir, now: t.clock.now() });
  const organiser = createAccount(t, 'organiser');
  await saveTaxProfile(t, organiser.userId);
  const on = await callProcedure(t, 'mutation', 'invoices.setEInvoicing', { applies: true }, organiser);
  expect(on.status).toBe(200);
  const ev = createTicketedEvent(t.deps.db, {
    city: 'Mumbai',
    types: [{ name: 'Gold', pricePaise: 118_000, totalTickets: 50 }],
  });
  t.deps.db.update(events).set({ ownerId: organiser.userId }).where(eq(events.id, ev.eventId)).run();

  const { invoices } = tablesOf(t.deps.db);
  const b2bInvoices: string[] = [];
  for (let i = 0; i < B2B_BOOKINGS; i++) {
    const { bookingId } = await buyTickets(t, ev, 1, { ticketDetails: BUYER, waitForWebhooks: true });
    const [admission] = t.deps.db
      .select()
      .from(invoices)
      .where(eq(invoices.bookingId, bookingId))
      .all()
      .filter((invoice) => invoice.kind === 'admission');
    b2bInvoices.push(admission!.id);
  }

  // Paid at the gateway, then nothing reached the app: no callback, no webhook.
  const paidUnreported = async () => {
    const buyer = createSignedInUser(t);
    const session = await proceed(t, buyer.cookie, ev, 1);
    await simulatePayment(t.deps, session.orderId);
    return session.orderId;
  };
  const { bookingId: strayBooking } = await buyTickets(t, ev, 1, { waitForWebhooks: true });
  const { bookings } = tablesOf(t.deps.db);
  const booked = t.deps.db.select().from(bookings).where(eq(bookings.id, strayBooking)).get()!;
  const strayOrder = {
    orderId: booked.orderId,
    bookedPaymentId: booked.paymentId,
    amountPaise: booked.totalAmountPaise,
  };
  const webhookOrder = await paidUnreported();
  const lostOrders: string[] = [];
  for (let i = 0; i < RECONCILED_ORDERS; i++) lostOrders.push(await paidUnreported());
  await simulatorWebhooksDelivered(t.deps);
  return { t, webhookOrder, lostOrders, b2bInvoices, strayOrder };
}
