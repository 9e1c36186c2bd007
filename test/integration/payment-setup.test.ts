import { afterEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src-server/env.ts';
import {
  PAYMENTS_NOT_CONFIGURED,
  paymentSetupProblem,
} from '../../src-server/services/payments/gateway-of.ts';
import { startInput } from '../helpers/checkout-flow.ts';
import { createTicketedEvent, expectInventoryInvariant } from '../helpers/inventory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';
import { createSignedInUser } from '../helpers/users.ts';

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in' } as const;

describe('payments in production', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it('never lets the offline simulator sell tickets unless explicitly allowed', async () => {
    t = createTestApp(PRODUCTION);
    const ev = createTicketedEvent(t.deps.db);
    const buyer = createSignedInUser(t);
    const res = await callProcedure(t, 'mutation', 'payments.start', startInput(ev, 2), {
      cookie: buyer.cookie,
    });
    expect(res.status).toBe(412);
    expect(res.body.error?.message).toBe(PAYMENTS_NOT_CONFIGURED);
    // Nothing was held for a payment that cannot happen.
    expectInventoryInvariant(t.deps.db);
    expect(t.deps.sqlite.prepare('select count(*) as n from holds').get()).toEqual({ n: 0 });
  });

  it('runs the simulator in production for a demo when ALLOW_PAYMENT_SIMULATOR=true', async () => {
    t = createTestApp({ ...PRODUCTION, ALLOW_PAYMENT_SIMULATOR: 'true' });
    const ev = createTicketedEvent(t.deps.db);
    const buyer = createSignedInUser(t);
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
