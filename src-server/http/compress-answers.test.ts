import { gunzipSync, inflateSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env.ts';
import { compressAnswers, SYNC_COMPRESS_MAX_BYTES } from './compress-answers.ts';
import { knownLength } from './known-length.ts';

/** A JSON answer of about `bytes` bytes, mounted as the app mounts it: compressAnswers outside knownLength. */
function appAnswering(bytes: number) {
  const body = JSON.stringify({ items: 'x'.repeat(bytes) });
  const app = new Hono<AppEnv>();
  app.use(compressAnswers());
  app.use(knownLength({ readAnyBody: true }));
  app.get('/answer', (c) => {
    c.header('etag', '"v1"');
    c.header('set-cookie', 'a=1; Path=/', { append: true });
    c.header('set-cookie', 'b=2; Path=/', { append: true });
    return c.json(JSON.parse(body));
  });
  app.get('/stream', () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'application/json' } });
  });
  return { app, body };
}

describe('compressing answers', () => {
  it('gzips an answer of known length at once, with its compressed length, Vary, a weak ETag and its cookies', async () => {
    const { app, body } = appAnswering(6_000);
    const res = await app.request('/answer', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const raw = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-length')).toBe(String(raw.byteLength));
    expect(raw.byteLength).toBeLessThan(body.length / 4);
    expect(gunzipSync(raw).toString()).toBe(body);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('etag')).toBe('W/"v1"');
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('uses deflate for a client that takes only deflate, and sends plain JSON to one that takes neither', async () => {
    const { app, body } = appAnswering(6_000);
    const deflated = await app.request('/answer', { headers: { 'accept-encoding': 'deflate' } });
    expect(deflated.headers.get('content-encoding')).toBe('deflate');
    expect(inflateSync(Buffer.from(await deflated.arrayBuffer())).toString()).toBe(body);

    const plain = await app.request('/answer', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(body);
  });

  it('leaves answers under 1 KB as they are, and compresses large and streamed answers as Hono does', async () => {
    const small = appAnswering(100);
    const res = await small.app.request('/answer', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(small.body);

    const large = appAnswering(SYNC_COMPRESS_MAX_BYTES + 10_000);
    const big = await large.app.request('/answer', { headers: { 'accept-encoding': 'gzip' } });
    expect(big.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await big.arrayBuffer())).toString()).toBe(large.body);

    const streamed = await large.app.request('/stream', { headers: { 'accept-encoding': 'gzip' } });
    expect(streamed.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await streamed.arrayBuffer())).toString()).toBe(large.body);

    const head = await large.app.request('/answer', {
      method: 'HEAD',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(head.headers.get('content-encoding')).toBeNull();
  });
});
