import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestAppOn, type TestApp, tablesFor, testEngine } from '../helpers/test-app.ts';
import { callProcedure } from '../helpers/trpc-http.ts';

/**
 * Issue 37: a flood of sign-ups or Contact Us messages from many addresses passed every per-address
 * limit (1,700 rows a second, +250 MB in 30 s, a queued mail each). What anonymous traffic can store
 * and queue is bounded in total: here at 5 an hour, each request from an address of its own.
 */
describe('anonymous writes are bounded in total, not only per address', () => {
  const { users, contactMessages, outbox } = tablesFor(testEngine());
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine(), {
      TRUST_PROXY: 'true',
      SIGN_UPS_PER_HOUR: '5',
      CONTACT_MESSAGES_PER_HOUR: '5',
    });
  });
  afterEach(async () => {
    await t.close();
  });

  const from = (i: number) => ({ headers: { 'x-forwarded-for': `198.51.100.${i}` } });

  it('stops sign-ups from 12 addresses at the hourly total, storing and queueing nothing beyond it', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const res = await callProcedure(
        t,
        'mutation',
        'auth.signUp',
        {
          name: `Flood ${i}`,
          email: `flood${i}@example.com`,
          mobile: '',
          password: 'a-long-password',
          confirmPassword: 'a-long-password',
          acceptTerms: true,
        },
        from(i),
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    expect(await t.deps.db.select().from(users)).toHaveLength(5);
    expect(await t.deps.db.select().from(outbox)).toHaveLength(5);
    // An hour later the site takes sign-ups again.
    t.clock.advance(60 * 60_000 + 1);
    const later = await callProcedure(
      t,
      'mutation',
      'auth.signUp',
      {
        name: 'Later',
        email: 'later@example.com',
        mobile: '',
        password: 'a-long-password',
        confirmPassword: 'a-long-password',
        acceptTerms: true,
      },
      from(99),
    );
    expect(later.status).toBe(200);
  });

  it('stops Contact Us messages from 12 addresses at the hourly total', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const res = await callProcedure(
        t,
        'mutation',
        'contact.send',
        { firstName: 'F', lastName: `${i}`, email: `f${i}@example.com`, mobile: '', message: 'Hello' },
        from(i),
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    expect(await t.deps.db.select().from(contactMessages)).toHaveLength(5);
    expect(await t.deps.db.select().from(outbox)).toHaveLength(5);
  });
});
