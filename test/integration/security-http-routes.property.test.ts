import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_IN_ADDRESS_MESSAGE } from '../../src-server/http/well-formed-path.ts';
import { simulatorWebhooksDelivered } from '../../src-server/integrations/simulator/routes.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/**
 * The plain HTTP routes (bad-input.property.test.ts covers the tRPC procedures) under random paths,
 * bodies, query strings and headers: never a 5xx, never a stack trace or internal detail.
 */

const hostile = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    '../../../../etc/passwd',
    '..%2F..%2Fjalsa.db',
    '%00',
    '%E0%A4%A',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    'a'.repeat(5_000),
    '',
    '.pdf',
    'x.ics',
    '{}',
    'null',
  ),
);
const body = fc.oneof(
  hostile,
  fc.json(),
  fc.constantFrom('{', '{"event":"payment.captured","payload":{"payment":{"entity":null}}}', '\u0000'),
);
const headerValue = fc.oneof(fc.string({ maxLength: 80 }), fc.stringMatching(/^[0-9a-f]{64}$/));

/** A stack frame, a source path, either engine's error or its SQL. */
const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|SqliteError|PostgresError|Failed query|invalid input syntax|invalid byte sequence|violates|stack/;

describe('plain HTTP routes under hostile input', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestAppOn(testEngine(), {
      GOOGLE_CLIENT_ID: 'client-id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secret',
    });
    cookie = (await signedInUser(t)).cookie;
  });
  afterAll(async () => {
    await simulatorWebhooksDelivered(t.deps);
    await t.close();
  });

  async function expectClean(res: Response, label: string) {
    const text = await res.text();
    expect(res.status, `${label}: ${text.slice(0, 200)}`).toBeLessThan(500);
    expect(text, label).not.toMatch(LEAK);
  }

  const segment = hostile.map((s) => encodeURIComponent(s));

  // PostgreSQL's text cannot hold U+0000: a route that looked an id up with it failed its statement, a
  // 500 there (tickets, invoices, the CSV export, the simulator's orders). Refused before any route runs.
  it('refuses %00 anywhere in an address with its message, signed in or out', async () => {
    const addresses = [
      '/api/tickets/a%00b.pdf',
      '/api/tickets/a%00b.ics',
      '/api/tickets/bk_x.pdf?token=a%00b',
      '/api/invoices/a%00b.pdf',
      '/api/organiser/events/a%00b/orders.csv',
      '/api/simulator/orders/a%00b',
      '/dev/mail/1%00/html',
      '/trpc/events.byId%00',
    ];
    for (const address of addresses) {
      for (const as of [{ cookie }, {}] as Record<string, string>[]) {
        const res = await t.request(address, { headers: as });
        expect(res.status, address).toBe(400);
        expect(await res.json(), address).toEqual({ error: { message: NUL_IN_ADDRESS_MESSAGE } });
      }
    }
    const pay = await t.request('/api/simulator/orders/a%00b/pay', { method: 'POST', body: '{}' });
    expect(pay.status).toBe(400);
  });

  it('GET routes with random path segments and query strings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          (s: string) => `/api/tickets/${s}`,
          (s: string) => `/api/tickets/${s}.pdf`,
          (s: string) => `/api/tickets/${s}.ics`,
          (s: string) => `/dev/mail/${s}`,
          (s: string) => `/dev/mail/${s}/html`,
          (s: string) => `/api/simulator/orders/${s}`,
          (s: string) => `/api/auth/google?redirect=${s}`,
          (s: string) => `/api/auth/google/callback?code=${s}&state=${s}`,
          (s: string) => `/api/${s}`,
        ),
        segment,
        fc.boolean(),
        async (route, s, signedIn) => {
          const path = route(s);
          await expectClean(await t.request(path, { headers: signedIn ? { cookie } : {} }), path);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('POST routes with random bodies, content types and signatures', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/api/webhooks/razorpay',
          '/api/create-order',
          '/api/simulator/orders/order_x/pay',
          '/api/simulator/orders/order_x/fail',
        ),
        body,
        headerValue,
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', ''),
        async (path, payload, signature, contentType) => {
          const res = await t.request(path, {
            method: 'POST',
            headers: {
              ...(contentType ? { 'content-type': contentType } : {}),
              'x-razorpay-signature': signature,
              'x-razorpay-event-id': signature.slice(0, 20),
            },
            body: payload,
          });
          await expectClean(res, path);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a malformed cookie header never breaks a route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (raw) => {
        const value = raw.replace(/[^\x20-\x7e]/g, '');
        for (const path of [
          '/api/tickets/bk_x.pdf',
          '/trpc/auth.me',
          '/api/auth/google/callback?code=a&state=b',
        ]) {
          await expectClean(await t.request(path, { headers: { cookie: value } }), path);
        }
      }),
      { numRuns: 50 },
    );
  });
});
