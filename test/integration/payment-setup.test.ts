import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src-server/app.ts';
import { composeDeps } from '../../src-server/compose-deps.ts';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { loadEnv } from '../../src-server/env.ts';
import {
  PAYMENTS_NOT_CONFIGURED,
  paymentSetupProblem,
} from '../../src-server/services/payments/gateway-of.ts';
import { proceed, startInput } from '../helpers/checkout-flow.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { createTicketedEventOn, expectInventoryInvariantOn } from '../helpers/inventory.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' } as const;

describe('payments in production', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('never lets the offline simulator sell tickets unless explicitly allowed', async () => {
    t = await createTestAppOn(testEngine(), PRODUCTION);
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const res = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 2), {
      cookie: buyer.cookie,
    });
    expect(res.status).toBe(412);
    expect(res.body.error?.message).toBe(PAYMENTS_NOT_CONFIGURED);
    // Nothing was held for a payment that cannot happen.
    await expectInventoryInvariantOn(t.deps.db);
    expect(await t.deps.db.select().from(tablesOf(t.deps.db).holds)).toEqual([]);
  });

  it('runs the simulator in production for a demo when ALLOW_PAYMENT_SIMULATOR=true', async () => {
    t = await createTestAppOn(testEngine(), { ...PRODUCTION, ALLOW_PAYMENT_SIMULATOR: 'true' });
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const res = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 2), {
      cookie: buyer.cookie,
    });
    expect(res.status).toBe(200);
  });

  it('refuses to boot in production without Razorpay keys or the explicit demo switch', () => {
    expect(paymentSetupProblem(loadEnv(PRODUCTION))).toMatch(/RAZORPAY_KEY_ID/);
    expect(paymentSetupProblem(loadEnv({ ...PRODUCTION, ALLOW_PAYMENT_SIMULATOR: 'true' }))).toBeNull();
    const keys = { RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 's', RAZORPAY_WEBHOOK_SECRET: 'w' };
    expect(paymentSetupProblem(loadEnv({ ...PRODUCTION, ...keys }))).toBeNull();
    expect(paymentSetupProblem(loadEnv({}))).toBeNull();
  });
});

describe("the simulator's routes", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('do not exist once Razorpay is configured, even for an order the simulator made before', async () => {
    t = await createTestAppOn(testEngine());
    const ev = await createTicketedEventOn(t.deps.db);
    const buyer = await signedInUser(t);
    const { orderId } = await proceed(t, buyer.cookie, ev);
    expect((await t.request(`/api/simulator/orders/${orderId}`)).status).toBe(200);

    // The same database, now served with Razorpay's keys: the composition root chooses Razorpay.
    const withRazorpay = createApp(
      composeDeps({
        ...t.deps,
        paymentGateway: undefined,
        env: {
          ...t.deps.env,
          RAZORPAY_KEY_ID: 'rzp_test_key',
          RAZORPAY_KEY_SECRET: 'key-secret',
          RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
        },
      }),
    );
    const base = 'http://localhost/api/simulator/orders';
    expect((await withRazorpay.request(`${base}/${orderId}`)).status).toBe(404);
    for (const action of ['pay', 'fail']) {
      const res = await withRazorpay.request(`${base}/${orderId}/${action}`, { method: 'POST' });
      expect(res.status, action).toBe(404);
    }
    expect(await t.deps.db.select().from(tablesOf(t.deps.db).bookings)).toEqual([]);
  });
});
