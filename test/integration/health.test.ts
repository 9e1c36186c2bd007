import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen } from '../helpers/listen.ts';
import { loseDatabase } from '../helpers/lose-database.ts';
import { createTestAppOn, type TestApp, testEngine } from '../helpers/test-app.ts';

describe('the HTTP app', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestAppOn(testEngine());
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers /healthz after migrating a fresh database', async () => {
    const res = await t.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it("answers /healthz with the caller's well-formed request id", async () => {
    const res = await t.request('/healthz', { headers: { 'x-request-id': 'probe-7' } });
    expect(res.headers.get('x-request-id')).toBe('probe-7');
  });

  it('answers /healthz with a 500, through the ordinary error path, when the database is gone', async () => {
    const giveBack = await loseDatabase(t);
    try {
      const res = await t.request('/healthz');
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: { message: 'Something went wrong. Please try again.' } });
    } finally {
      await giveBack();
    }
    // PostgreSQL's pool opens new connections once the server takes them again: the site comes back
    // without a restart (and the ended connections did not end the process).
    if (t.engine === 'postgres') expect((await t.request('/healthz')).status).toBe(200);
  });

  it('sends security headers on every response', async () => {
    const res = await t.request('/healthz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it("gives every response a request id, the caller's own when a proxy set a well-formed one", async () => {
    for (const path of ['/healthz', '/trpc/events.list', '/trpc/nope.nothing']) {
      const res = await t.request(path);
      expect(res.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
    const traced = await t.request('/trpc/events.list', { headers: { 'x-request-id': 'edge-42_a=' } });
    expect(traced.headers.get('x-request-id')).toBe('edge-42_a=');
    const forged = await t.request('/trpc/events.list', { headers: { 'x-request-id': 'a b<script>' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a state-changing request from another origin', async () => {
    const res = await t.request('/trpc/contact.send', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
  });

  it('answers an unknown procedure and malformed JSON cleanly, without a stack trace', async () => {
    const unknown = await t.request('/trpc/nope.nothing');
    expect(unknown.status).toBe(404);
    const malformed = await t.request('/trpc/contact.send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(malformed.status).toBeLessThan(500);
    expect(await malformed.text()).not.toMatch(/at .*\.ts:\d+/);
  });
});

// Served as in production (@hono/node-server, whose light Response `c.json()` then builds): a reply of
// unknown length went through compress()'s gzip stream however small it was (issue 21).
describe('replies of known length over HTTP', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  const fetchResponse = globalThis.Response;
  const fetchRequest = globalThis.Request;
  beforeAll(async () => {
    t = await createTestAppOn(testEngine());
    server = await listen(t);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
    // serve() installs its Response and Request as globals; give the other tests back the standard ones.
    globalThis.Response = fetchResponse;
    globalThis.Request = fetchRequest;
  });

  /** Status, headers and the bytes as sent, asking for gzip as a browser does. */
  function get(path: string) {
    return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
      (resolve, reject) => {
        request(`${server.url}${path}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        })
          .on('error', reject)
          .end();
      },
    );
  }

  it.each([
    ['/healthz', 200, { status: 'ok' }],
    ['/api/no-such-route', 404, { error: { message: 'Not found' } }],
  ])(
    '%s (a c.json() reply) carries its Content-Length and goes out uncompressed',
    async (path, status, body) => {
      const res = await get(path);
      expect(res.status).toBe(status);
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
      expect(JSON.parse(res.text)).toEqual(body);
      // The header middlewares still ran.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  // /healthz is answered ahead of the middleware stack (http/health-check.ts): it must still carry every
  // header the stack gives a JSON reply, so it is compared with one that went through the whole stack.
  it('answers /healthz with the same headers as a reply that went through the whole stack', async () => {
    const perRequest = new Set(['date', 'x-request-id', 'content-length', 'connection', 'keep-alive']);
    const headersOf = (res: { headers: Record<string, unknown> }) =>
      Object.fromEntries(Object.entries(res.headers).filter(([name]) => !perRequest.has(name)));
    const health = await get('/healthz');
    const throughStack = await get('/api/no-such-route');
    expect(headersOf(health)).toEqual(headersOf(throughStack));
    expect(health.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
