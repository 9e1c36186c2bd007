import { count } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src-server/db/engine/tables.ts';
import { TEST_ORDERS_PER_CLIENT } from '../../src-server/http/test-order.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/** POST /api/create-order, the anonymous order endpoint of the /temp-checkout test page. */
describe('the test page’s order endpoint', () => {
  let t: TestApp;
  beforeEach(async () => {
    // Client addresses come from X-Forwarded-For, which the app believes only behind a trusted proxy.
    t = await createTestAppOn(testEngine(), { TRUST_PROXY: 'true' });
  });
  afterEach(async () => {
    await t.close();
  });

  const createOrder = (ip: string) =>
    t.request('/api/create-order', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ amount: 1_000_000, currency: 'INR' }),
    });
  const orders = async () => {
    const { simulatorOrders } = tablesOf(t.deps.db);
    const [row] = await t.deps.db.select({ n: count() }).from(simulatorOrders);
    return { n: Number(row!.n) };
  };

  it('opens an order for the test page', async () => {
    const res = await createOrder('203.0.113.3');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ order_id: expect.stringMatching(/^order_/), amount: 1_000_000 });
  });

  it(`opens at most ${TEST_ORDERS_PER_CLIENT.max} per client address in 15 minutes, however fast they come`, async () => {
    const burst = await Promise.all(
      Array.from({ length: TEST_ORDERS_PER_CLIENT.max + 5 }, () => createOrder('203.0.113.4')),
    );
    const statuses = burst.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(TEST_ORDERS_PER_CLIENT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const refused = burst.find((res) => res.status === 429)!;
    expect(await refused.json()).toEqual({
      error: { message: 'Too many test orders. Please try again later' },
    });
    expect(await orders()).toEqual({ n: TEST_ORDERS_PER_CLIENT.max });

    expect((await createOrder('198.51.100.4')).status).toBe(200);
    t.clock.advance(TEST_ORDERS_PER_CLIENT.windowMs);
    expect((await createOrder('203.0.113.4')).status).toBe(200);
  });
});
