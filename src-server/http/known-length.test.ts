import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app.ts';
import { knownLength } from './known-length.ts';

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
});
