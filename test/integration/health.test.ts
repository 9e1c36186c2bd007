import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

describe('the HTTP app', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp();
  });
  afterEach(() => t.close());

  it('answers /healthz after migrating a fresh database', async () => {
    const res = await t.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
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
