import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingOn } from '../helpers/bookings.ts';
import { signedInUser } from '../helpers/engine-fixtures.ts';
import { fakeClientDir } from '../helpers/fake-client.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

/**
 * Security headers on every kind of response the app sends: the built client's HTML and assets, tRPC
 * answers and errors, plain routes, refusals and the body-limit error. Checked strictly: the policy
 * must not allow inline or eval'd script, plugins, framing, foreign forms or a foreign <base>.
 */

/** A stand-in for the built client, so the HTML and asset paths are served as in production. */
function parseCsp(header: string | null): Map<string, string[]> {
  expect(header, 'Content-Security-Policy header').toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!.toLowerCase(), values];
      }),
  );
}

function expectStrictHeaders(res: Response, label: string) {
  const csp = parseCsp(res.headers.get('content-security-policy'));
  expect(csp.get('default-src'), label).toEqual(["'self'"]);
  const scripts = csp.get('script-src') ?? csp.get('default-src')!;
  for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:', 'blob:']) {
    expect(scripts, `${label}: script-src must not allow ${unsafe}`).not.toContain(unsafe);
  }
  // Only Razorpay's checkout script comes from elsewhere; WebAssembly (the gate's QR decoder) may compile.
  expect(scripts.filter((s) => s !== "'self'")).toEqual([
    "'wasm-unsafe-eval'",
    'https://checkout.razorpay.com',
  ]);
  expect(csp.get('object-src'), label).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(csp.get('base-uri'), label).toEqual(["'self'"]);
  expect(csp.get('form-action'), label).toEqual(["'self'"]);
  for (const [name, values] of csp) {
    expect(values, `${label}: ${name} has no wildcard`).not.toContain('*');
    expect(values, `${label}: ${name} allows no eval`).not.toContain("'unsafe-eval'");
    expect(
      values.filter((v) => v.startsWith('http:')),
      `${label}: ${name} allows no plain-HTTP origin`,
    ).toEqual([]);
  }
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), label).toBe('DENY');
  expect(res.headers.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('x-powered-by'), label).toBeNull();
  expect(res.headers.get('server'), label).toBeNull();
}

/** One request of every kind the app answers. */
async function everyKindOfResponse(t: TestApp, cookie: string, bookingId: string) {
  const json = { 'content-type': 'application/json' };
  return {
    'the HTML page': await t.request('/'),
    'an event page (with link-preview tags)': await t.request('/events/whatever'),
    'a hashed asset': await t.request('/assets/index-abc123.js'),
    'a tRPC query': await t.request('/trpc/events.list'),
    'a tRPC error': await t.request('/trpc/bookings.byId?input=%7B%22bookingId%22%3A%22x%22%7D'),
    'an unknown procedure': await t.request('/trpc/nope'),
    'an unknown API path': await t.request('/api/nope'),
    'a ticket PDF': await t.request(`/api/tickets/${bookingId}.pdf`, { headers: { cookie } }),
    'a refused webhook': await t.request('/api/webhooks/razorpay', { method: 'POST', body: '{}' }),
    'a cross-origin refusal': await t.request('/trpc/contact.send', {
      method: 'POST',
      headers: { ...json, origin: 'https://evil.example' },
      body: '{}',
    }),
    'a body over the limit': await t.request('/trpc/contact.send', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ message: 'x'.repeat(100_000) }),
    }),
    'the health check': await t.request('/healthz'),
  };
}

describe.each([
  ['development', { NODE_ENV: 'development' }],
  // The simulator stands in for Razorpay, so the webhook answers as it would in a real deployment.
  [
    'production',
    { NODE_ENV: 'production', PUBLIC_URL: 'https://tickets.example.in', ALLOW_PAYMENT_SIMULATOR: 'true' },
  ],
] as const)('security headers in %s', (mode, env) => {
  let t: TestApp;
  let clientDir: string;
  let responses: Record<string, Response>;
  beforeAll(async () => {
    clientDir = fakeClientDir();
    t = await createTestAppOn(testEngine(), env, { clientDir });
    const owner = await signedInUser(t);
    const { bookingId } = await createBookingOn(t, { userId: owner.userId });
    responses = await everyKindOfResponse(t, owner.cookie, bookingId);
  });
  afterAll(async () => {
    await t.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('reached every kind of response (statuses as expected)', () => {
    const statuses = Object.fromEntries(Object.entries(responses).map(([k, r]) => [k, r.status]));
    expect(statuses).toEqual({
      'the HTML page': 200,
      'an event page (with link-preview tags)': 200,
      'a hashed asset': 200,
      'a tRPC query': 200,
      'a tRPC error': 404,
      'an unknown procedure': 404,
      'an unknown API path': 404,
      'a ticket PDF': 200,
      'a refused webhook': 400,
      'a cross-origin refusal': 403,
      'a body over the limit': 413,
      'the health check': 200,
    });
  });

  it('sends a strict CSP, nosniff, DENY framing and the referrer policy on every one', () => {
    for (const [label, res] of Object.entries(responses)) expectStrictHeaders(res, label);
  });

  it(
    mode === 'production'
      ? 'sends HSTS for at least a year, with subdomains, on every response'
      : 'sends no HSTS outside production (a plain-HTTP localhost must keep working)',
    () => {
      for (const [label, res] of Object.entries(responses)) {
        const hsts = res.headers.get('strict-transport-security');
        if (mode !== 'production') {
          expect(hsts, label).toBeNull();
          continue;
        }
        const maxAge = Number(/max-age=(\d+)/.exec(hsts ?? '')?.[1]);
        expect(maxAge, label).toBeGreaterThanOrEqual(31_536_000);
        expect(hsts, label).toContain('includeSubDomains');
      }
    },
  );

  it('keeps personal files out of shared caches, and the HTML revalidated', () => {
    expect(responses['a ticket PDF']!.headers.get('cache-control')).toBe('private, no-store');
    expect(responses['the HTML page']!.headers.get('cache-control')).toBe('no-cache');
  });
});
