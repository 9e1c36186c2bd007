import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { knownLength, stringBodyOf } from './known-length.ts';

describe('known length for tRPC answers', () => {
  it('adds the length and keeps status, body and every header, several cookies included', async () => {
    const app = new Hono<AppEnv>();
    app.use(knownLength());
    app.get('/answer', () => {
      const headers = new Headers({ 'content-type': 'application/json', vary: 'accept' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response(JSON.stringify({ result: { data: 'ok' } }), { status: 201, headers });
    });
    const res = await app.request('/answer');
    const body = JSON.stringify({ result: { data: 'ok' } });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe(body);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(res.headers.get('vary')).toBe('accept');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it("reads a string body where @hono/node-server's lightweight Response keeps it, without building a Fetch Response", async () => {
    const fetchResponse = globalThis.Response;
    const fetchRequest = globalThis.Request;
    // The server installs its lightweight Request and Response as globals, as `serve()` does.
    getRequestListener(() => new Response(null));
    try {
      expect(globalThis.Response).not.toBe(fetchResponse);
      const body = JSON.stringify({ result: { data: '₹1,499 ok' } }); // bytes, not characters
      const res = new Response(body, { headers: { 'content-type': 'application/json' } });
      expect(stringBodyOf(res)).toBe(body);
      // Nothing was built behind it: the class keeps a full Fetch Response under 'responseCache' once made.
      expect(Object.getOwnPropertySymbols(res).map((s) => s.description)).not.toContain('responseCache');
      expect(stringBodyOf(new fetchResponse(body))).toBeUndefined();

      const app = new Hono<AppEnv>();
      app.use(knownLength());
      app.get('/answer', () => new Response(body, { status: 202 }));
      const answer = await app.request('/answer');
      expect(answer.status).toBe(202);
      expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(await answer.text()).toBe(body);
    } finally {
      globalThis.Response = fetchResponse;
      globalThis.Request = fetchRequest;
    }
  });
});
